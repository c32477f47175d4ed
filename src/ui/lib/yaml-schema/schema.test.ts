// The schema side against the real server's /openapi/v3 documents (built-ins and a CRD).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../../../core/testing/api-server';
import { schemaAt, typeName } from './openapi-schema';
import { createSchemaLookup } from './schema-source';
import { fieldHover, fieldSuggestions } from './suggestions';
import { validateYaml, type SchemaLookup } from './validate';

let server: TestClient;
let lookup: SchemaLookup;
let fetches: string[];

beforeAll(async () => {
  server = await startTestServer();
  fetches = [];
  const get = async (url: string) => {
    fetches.push(url);
    const r = await server.get(url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    return r.json as unknown;
  };
  lookup = createSchemaLookup(
    {
      openapiIndex: async () => Object.fromEntries(Object.entries((await get('/openapi/v3')) as { paths: Record<string, { serverRelativeURL: string }> }).flatMap(([, paths]) => Object.entries(paths).map(([k, v]) => [k, v.serverRelativeURL]))),
      openapiDocument: get,
    },
  );
});

afterAll(() => server.close());

describe('schemas from /openapi/v3', () => {
  it('finds built-in kinds and walks into lists and maps', async () => {
    const deployment = (await lookup('apps', 'v1', 'Deployment'))!;
    expect(deployment).toBeDefined();
    expect(typeName(deployment.doc, schemaAt(deployment.doc, deployment.root, ['spec', 'replicas']))).toBe('integer (int32)');
    expect(typeName(deployment.doc, schemaAt(deployment.doc, deployment.root, ['spec', 'template', 'spec', 'containers']))).toBe('[]Container');
    expect(typeName(deployment.doc, schemaAt(deployment.doc, deployment.root, ['metadata', 'labels']))).toBe('map[string]string');
    const names = fieldSuggestions(deployment, ['spec', 'template', 'spec', 'containers', 0]).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['name', 'image', 'ports', 'env']));
    expect(fieldSuggestions(deployment, ['spec', 'template', 'spec', 'containers', 0]).find((s) => s.name === 'name')).toMatchObject({ required: true, type: 'string', block: false });
    expect(fieldHover(deployment, ['spec', 'template', 'spec', 'containers', 0], 'ports')).toMatch(/^\*\*\.spec\.template\.spec\.containers\[\]\.ports\*\* `\[\]ContainerPort`/);
    expect(await lookup('', 'v1', 'ConfigMap')).toBeDefined();
    expect(await lookup('apps', 'v1', 'NoSuchKind')).toBeUndefined();
    // Documents are fetched once each; a missing kind re-reads only the small index.
    expect(fetches.filter((u) => u.startsWith('/openapi/v3/apis/apps/v1')).length).toBe(1);
  });

  it('reports fields named as Object.prototype members as unknown, and takes them as map keys', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  toString: x\n  labels:\n    constructor: v\ndata:\n  __proto__: v\n  valueOf: v\n';
    const messages = (await validateYaml(text, lookup)).map((p) => p.message);
    expect(messages).toEqual(['unknown field "metadata.toString" (ObjectMeta has no such field)']);
  });

  it('validates every document: unknown fields, wrong types, syntax, unknown kinds', async () => {
    const text = [
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: three\n  selector:\n    matchLabels:\n      app: web\n  template:\n    spec:\n      containers:\n      - name: c\n        imag: nginx\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: [a]\ndata:\n  any-key: v\n',
      'apiVersion: v1\nkind: Nope\n',
      'apiVersion: v1\nkind: ConfigMap\ndata: {a: 1\n',
    ].join('---\n');
    const problems = await validateYaml(text, lookup);
    const messages = problems.map((p) => p.message);
    expect(messages).toContain('spec.replicas: expected integer (int32), got string "three"');
    expect(messages).toContain('unknown field "spec.template.spec.containers[0].imag" (Container has no such field)');
    expect(messages).toContain('metadata.labels: expected map[string]string, got a list');
    expect(messages).toContain('the server has no schema for kind Nope in v1');
    expect(problems.some((p) => p.severity === 'error' && /flow map|Missing|closing|Flow/i.test(p.message))).toBe(true);
    const imag = problems.find((p) => p.message.includes('imag'))!;
    expect(text.slice(imag.start, imag.end)).toBe('imag');
    expect(await validateYaml('apiVersion: apps/v1\nkind: Deployment\nspec:\n  replicas: 2\n', lookup)).toEqual([]);
  });

  it('serves CRD kinds once created, re-reading the index', async () => {
    expect(await lookup('example.com', 'v1', 'Widget')).toBeUndefined();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', description: 'How big.' } } } } } } }],
      },
    };
    expect((await server.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const widget = (await lookup('example.com', 'v1', 'Widget'))!;
    expect(widget).toBeDefined();
    // The CRD keeps its schema's descriptions (JSONSchemaProps.description), so the hover shows it.
    expect(fieldHover(widget, ['spec'], 'size')).toBe('**.spec.size** `integer`\n\nHow big.');
    const problems = await validateYaml('apiVersion: example.com/v1\nkind: Widget\nspec:\n  size: big\n  colour: red\n', lookup);
    expect(problems.map((p) => p.message)).toEqual(['spec.size: expected integer, got string "big"', 'unknown field "spec.colour" (Object has no such field)']);
  });
});
