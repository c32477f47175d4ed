// kubectl 1.23 — the client of the version this server plays — with its default validation: it
// downloads /openapi/v2 as gnostic protobuf and validates every apply/create/replace/edit against
// it, explains from it, computes client-side apply's strategic merge patch with its patch
// strategies, and checks it for dry-run support before `--dry-run=server`, `diff` and
// `--server-side`. Without /openapi/v2 every one of these commands failed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, type RunResult, runTool, startCluster } from './harness';

const KUBECTL = 'kubectl-1.23';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

const k = (args: string[], stdin?: string, env?: NodeJS.ProcessEnv): Promise<RunResult> => runTool(c, KUBECTL, args, { stdin, env });

async function ok(args: string[], stdin?: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const r = await k(args, stdin, env);
  if (r.code !== 0) throw new Error(`${KUBECTL} ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  // A broken schema makes client-side apply fall back with this warning instead of failing.
  expect(r.stderr).not.toContain('error calculating patch from openapi');
  return r.stdout;
}

const jsonpath = (kind: string, name: string, path: string) => ok(['get', kind, name, '-o', `jsonpath={${path}}`]);

function deployment(image: string, replicas: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: ${image}
        ports:
        - containerPort: 80
        env:
        - {name: MODE, value: plain}
`;
}

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1}
              color: {type: string, enum: [red, blue]}
              port: {x-kubernetes-int-or-string: true}
              note: {type: string, nullable: true}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              ready: {type: boolean}
`;

function widget(size: number, field = 'size'): string {
  return `apiVersion: example.com/v1
kind: Widget
metadata: {name: w1}
spec:
  ${field}: ${size}
  color: red
  port: web
  note: null
  extra: {anything: {goes: [1, 2]}}
  template: {apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {k: v}}
`;
}

describe('kubectl 1.23 with default validation', () => {
  it('is kubectl v1.23', async () => {
    expect(await ok(['version', '--client'])).toContain('GitVersion:"v1.23.');
  });

  it('apply creates, then changes a Deployment with a strategic merge patch that keeps what others added', async () => {
    expect(await ok(['apply', '-f', '-'], deployment('nginx:1.21', 2))).toBe('deployment.apps/web created\n');
    // Someone else adds a sidecar container and an env var: the next apply must merge the lists
    // by their merge keys (name), not replace them as a JSON merge patch would.
    await ok(['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"add","path":"/spec/template/spec/containers/-","value":{"name":"sidecar","image":"busybox"}},{"op":"add","path":"/spec/template/spec/containers/0/env/-","value":{"name":"EXTRA","value":"1"}}]']);
    expect(await ok(['apply', '-f', '-'], deployment('nginx:1.22', 3))).toBe('deployment.apps/web configured\n');
    expect(await jsonpath('deployment', 'web', '.spec.replicas')).toBe('3');
    expect(await jsonpath('deployment', 'web', '.spec.template.spec.containers[*].name')).toBe('nginx sidecar');
    expect(await jsonpath('deployment', 'web', '.spec.template.spec.containers[0].image')).toBe('nginx:1.22');
    expect(await jsonpath('deployment', 'web', '.spec.template.spec.containers[0].env[*].name')).toBe('MODE EXTRA');
    // Applied again, the patch only restates the order of the applied items ($setElementOrder): the others stay.
    await ok(['apply', '-f', '-'], deployment('nginx:1.22', 3));
    expect(await jsonpath('deployment', 'web', '.spec.template.spec.containers[*].name')).toBe('nginx sidecar');
  });

  it('apply of an unchanged manifest sends nothing', async () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: same}\ndata: {a: "1"}\n';
    expect(await ok(['apply', '-f', '-'], cm)).toBe('configmap/same created\n');
    expect(await ok(['apply', '-f', '-'], cm)).toBe('configmap/same unchanged\n');
  });

  it('validates on the client against /openapi/v2: unknown and missing fields are refused before any request', async () => {
    const bad = deployment('nginx:1.22', 3).replace('replicas:', 'replicaz:');
    const r = await k(['apply', '-f', '-'], bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ValidationError(Deployment.spec): unknown field "replicaz" in io.k8s.api.apps.v1.DeploymentSpec');
    const typed = await k(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: typed}\ndata: [1]\n');
    expect(typed.code).toBe(1);
    expect(typed.stderr).toContain('ValidationError(ConfigMap.data): invalid type for io.k8s.api.core.v1.ConfigMap.data: got "array", expected "map"');
  });

  it('create -f and replace -f', async () => {
    expect(await ok(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: "1"}\n')).toBe('configmap/settings created\n');
    expect(await ok(['replace', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: "2"}\n')).toBe('configmap/settings replaced\n');
    expect(await jsonpath('configmap', 'settings', '.data.a')).toBe('2');
  });

  it('edit validates the edited object and saves it', async () => {
    const editor = join(c.dir, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nsed -i \'s/^  a: "2"$/  a: "3"/\' "$1"\n', { mode: 0o755 });
    expect(await ok(['edit', 'configmap', 'settings'], undefined, { EDITOR: editor })).toBe('configmap/settings edited\n');
    expect(await jsonpath('configmap', 'settings', '.data.a')).toBe('3');
  });

  it('explain reads kinds and fields from /openapi/v2', async () => {
    const pods = await ok(['explain', 'pods']);
    expect(pods).toMatch(/^KIND:\s+Pod$/m);
    expect(pods).toMatch(/^VERSION:\s+v1$/m);
    expect(pods).toMatch(/^\s+spec\t<Object>$/m);
    const spec = await ok(['explain', 'deployments.spec']);
    expect(spec).toMatch(/^RESOURCE: spec <Object>$/m);
    expect(spec).toMatch(/^\s+replicas\t<integer>$/m);
    expect(spec).toMatch(/^\s+selector\t<Object> -required-$/m);
    expect(spec).toMatch(/^\s+strategy\t<Object>$/m);
  });

  it('diff shows what apply would change (exit 1), nothing when in sync (exit 0)', async () => {
    const changed = await k(['diff', '-f', '-'], deployment('nginx:1.23', 3));
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^-\s+image: nginx:1\.22$/m);
    expect(changed.stdout).toMatch(/^\+\s+image: nginx:1\.23$/m);
    const same = await k(['diff', '-f', '-'], deployment('nginx:1.22', 3));
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
  });

  it('apply --dry-run=server changes nothing; apply --server-side takes the fields', async () => {
    expect(await ok(['apply', '--dry-run=server', '-f', '-'], deployment('nginx:1.23', 5))).toBe('deployment.apps/web configured (server dry run)\n');
    expect(await jsonpath('deployment', 'web', '.spec.replicas')).toBe('3');
    const ssa = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa}\ndata: {k: v}\n';
    expect(await ok(['apply', '--server-side', '-f', '-'], ssa)).toBe('configmap/ssa serverside-applied\n');
    expect(await jsonpath('configmap', 'ssa', '.metadata.managedFields[0].manager')).toBe('kubectl');
  });

  it('a CRD: validated, applied, diffed, dry-run and server-side applied, and explained', async () => {
    expect(await ok(['apply', '-f', '-'], WIDGET_CRD)).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n');
    // kubectl reads /openapi/v2 once per run; a fresh run sees the CRD's definition.
    await eventually(async () => expect(await ok(['explain', 'widgets'])).toMatch(/^KIND:\s+Widget$/m));
    expect(await ok(['apply', '-f', '-'], widget(2))).toBe('widget.example.com/w1 created\n');
    expect(await ok(['apply', '-f', '-'], widget(3))).toBe('widget.example.com/w1 configured\n');
    expect(await jsonpath('widget', 'w1', '.spec.size')).toBe('3');
    expect((await k(['diff', '-f', '-'], widget(3))).code).toBe(0);
    const diff = await k(['diff', '-f', '-'], widget(4));
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^\+\s+size: 4$/m);
    expect(await ok(['apply', '--dry-run=server', '-f', '-'], widget(4))).toBe('widget.example.com/w1 configured (server dry run)\n');
    expect(await jsonpath('widget', 'w1', '.spec.size')).toBe('3');
    expect(await ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], widget(5))).toBe('widget.example.com/w1 serverside-applied\n');
    expect(await jsonpath('widget', 'w1', '.spec.size')).toBe('5');

    const spec = await ok(['explain', 'widget.spec']);
    expect(spec).toMatch(/^\s+size\t<integer> -required-$/m);
    expect(spec).toMatch(/^\s+color\t<string>$/m);
    // Fields v2 cannot type (int-or-string, nullable, unknown fields kept) are left open.
    expect(spec).toMatch(/^\s+extra\t<>$/m);

    const bad = await k(['apply', '-f', '-'], widget(2, 'sise'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('ValidationError(Widget.spec): unknown field "sise" in com.example.v1.Widget.spec');
    expect(bad.stderr).toContain('ValidationError(Widget.spec): missing required field "size" in com.example.v1.Widget.spec');
  });
});

describe('with OpenAPIV3=false (v1.23\'s default)', () => {
  it('/openapi/v3 is a 404 and kubectl 1.34 falls back to /openapi/v2 to explain and validate', async () => {
    const off = await startCluster(['--feature-gates', 'OpenAPIV3=false']);
    try {
      expect((await off.kubectl(['get', '--raw', '/openapi/v3'])).stderr).toContain('Error from server (NotFound)');
      const explained = await off.kubectl(['explain', 'deployments.spec.replicas']);
      expect(explained.stdout).toMatch(/^FIELD:\s+replicas <integer>$/m);
      const bad = await off.kubectl(['apply', '-f', '-'], { stdin: deployment('nginx:1.22', 1).replace('replicas:', 'replicaz:') });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('unknown field "replicaz" in io.k8s.api.apps.v1.DeploymentSpec');
    } finally {
      await off.stop();
    }
  });
});
