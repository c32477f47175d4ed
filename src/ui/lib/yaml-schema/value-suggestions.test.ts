// Value completion against the real server: schema enums (a CRD's), booleans, the known-values
// table for built-ins, and apiVersions, kinds and namespaces from the cluster, through the same
// API client and schema lookup the page uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../../../core/testing/api-server';
import { createApiClient } from '../api';
import { knownEnum } from './known-enums';
import { createSchemaLookup } from './schema-source';
import type { SchemaLookup } from './validate';
import { createValueCatalog } from './value-catalog';
import { valueSuggestions } from './value-suggestions';
import { yamlContext } from './yaml-context';

let server: TestClient;
let lookup: SchemaLookup;

beforeAll(async () => {
  server = await startTestServer();
  const fetchViaServer = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input));
    const reply = await server.request(init.method ?? 'GET', url.pathname + url.search, init.body === undefined ? undefined : String(init.body), (init.headers ?? {}) as Record<string, string>);
    return new Response(reply.text, { status: reply.status, headers: { 'Content-Type': String(reply.headers['content-type'] ?? 'application/json') } });
  };
  lookup = createSchemaLookup(createApiClient({ apiBase: 'http://playground.test/', fetch: fetchViaServer as typeof fetch }));
});

afterAll(() => server.close());

/** Suggestions with the cursor at the end of the line containing `marker` (which is removed). */
async function valuesAt(text: string): Promise<string[]> {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('|'));
  const column = lines[line]!.indexOf('|');
  lines[line] = lines[line]!.replace('|', '');
  return (await valueSuggestions(yamlContext(lines.join('\n'), line, column), lookup)).map((s) => s.value);
}

const deployment = (containerLines: string) => `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n${containerLines}`;

describe('value completion', () => {
  it('offers the known values of common built-in fields, in lists too', async () => {
    expect(await valuesAt(deployment('        imagePullPolicy: |\n'))).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(await valuesAt(deployment('        imagePullPolicy: If|\n'))).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(await valuesAt(deployment('        ports:\n        - containerPort: 80\n          protocol: |\n'))).toEqual(['TCP', 'UDP', 'SCTP']);
    expect(await valuesAt('apiVersion: v1\nkind: Pod\nspec:\n  restartPolicy: |\n')).toEqual(['Always', 'OnFailure', 'Never']);
    expect(await valuesAt('apiVersion: v1\nkind: Service\nspec:\n  type: |\n')).toEqual(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']);
    expect(await valuesAt('apiVersion: v1\nkind: PersistentVolumeClaim\nspec:\n  accessModes:\n  - |\n')).toContain('ReadWriteOnce');
    // A string field without known values, and a field the kind does not have: nothing.
    expect(await valuesAt(deployment('        image: |\n'))).toEqual([]);
    expect(await valuesAt('apiVersion: v1\nkind: Service\nspec:\n  colour: |\n')).toEqual([]);
  });

  it('offers true/false for booleans', async () => {
    expect(await valuesAt(deployment('        stdin: |\n'))).toEqual(['true', 'false']);
    expect(await valuesAt('apiVersion: apps/v1\nkind: Deployment\nspec:\n  paused: |\n')).toEqual(['true', 'false']);
  });

  it('offers apiVersions and the kinds of the written apiVersion from discovery', async () => {
    const versions = await valuesAt('apiVersion: |\n');
    expect(versions).toEqual(expect.arrayContaining(['v1', 'apps/v1', 'batch/v1', 'apiextensions.k8s.io/v1']));
    const appsKinds = await valuesAt('apiVersion: apps/v1\nkind: |\n');
    expect(appsKinds).toEqual(expect.arrayContaining(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']));
    expect(appsKinds).not.toContain('Pod');
    expect(await valuesAt('apiVersion: v1\nkind: |\n')).toEqual(expect.arrayContaining(['Pod', 'Service', 'ConfigMap']));
  });

  it('offers namespace names for metadata.namespace', async () => {
    expect((await server.post('/api/v1/namespaces', { metadata: { name: 'team-a' } })).status).toBe(201);
    const names = await valuesAt('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: |\n');
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'team-a']));
  });

  it('offers a CRD schema’s own enum', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string', enum: ['small', 'large'] } } } } } } }],
      },
    };
    expect((await server.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    expect(await valuesAt('apiVersion: example.com/v1\nkind: Gadget\nspec:\n  size: |\n')).toEqual(['small', 'large']);
    expect(await valuesAt('apiVersion: example.com/v1\nkind: |\n')).toEqual(['Gadget']);
  });

  it('names definitions as the served OpenAPI does', async () => {
    expect(knownEnum('io.k8s.api.core.v1.Container', 'imagePullPolicy')).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(knownEnum(undefined, 'imagePullPolicy')).toBeUndefined();
  });
});

describe('value catalog', () => {
  it('reads discovery once within its time to live and retries after a failure', async () => {
    let now = 0;
    let reads = 0;
    let fail = true;
    const catalog = createValueCatalog(
      {
        discover: async () => {
          reads++;
          if (fail) throw new Error('down');
          return [{ name: 'apps', preferredVersion: 'v1', versions: [{ version: 'v1', resources: [] }] }];
        },
        namespaceNames: async () => ['b', 'a'],
      },
      1000,
      () => now,
    );
    await expect(catalog.apiVersions()).rejects.toThrow('down');
    fail = false;
    expect(await catalog.apiVersions()).toEqual(['apps/v1']);
    expect(await catalog.kinds('apps/v1')).toEqual([]);
    expect(reads).toBe(2);
    now = 2000;
    await catalog.apiVersions();
    expect(reads).toBe(3);
    expect(await catalog.namespaces()).toEqual(['a', 'b']);
  });
});
