// The acceptance list for the real kubectl 1.34 against the Node host. Output expectations come
// from kubectl's own printers (see ../shared/kubectl-wire for the requests behind each command).
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, type RunResult, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** Runs kubectl and fails with its output when the exit code is not 0. */
const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;


function jsonpath(kind: string, name: string, path: string, ns: string[] = []): Promise<string> {
  return ok(['get', kind, name, ...ns, '-o', `jsonpath={${path}}`]);
}

function expectNotFound(r: RunResult, resource: string, name: string): void {
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`Error from server (NotFound): ${resource} "${name}" not found`);
}

describe('kubectl discovery and basics', () => {
  it('version prints the client and the server version', async () => {
    const out = await ok(['version']);
    expect(out).toMatch(/^Client Version: v1\.34\.5$/m);
    expect(out).toMatch(/^Server Version: v1\.23\.\d+$/m);
  });

  it('api-resources lists built-in and namespaced/cluster resources with short names', async () => {
    const out = await ok(['api-resources']);
    expect(out).toMatch(/^NAME\s+SHORTNAMES\s+APIVERSION\s+NAMESPACED\s+KIND$/m);
    expect(out).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
    expect(out).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
    expect(out).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
    expect(out).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    expect(out).toMatch(/^customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition$/m);
  });

  it('get --raw /readyz?verbose prints the health checks', async () => {
    const out = await ok(['get', '--raw', '/readyz?verbose']);
    expect(out).toMatch(/^\[\+\]ping ok$/m);
    expect(out).toMatch(/^readyz check passed$/m);
  });

  it('explain describes a kind and a nested field from the OpenAPI schema', async () => {
    const pod = await ok(['explain', 'pods']);
    expect(pod).toMatch(/^KIND:\s+Pod$/m);
    expect(pod).toMatch(/^VERSION:\s+v1$/m);
    expect(pod).toMatch(/^FIELDS:$/m);
    expect(pod).toMatch(/^\s+spec\s+<PodSpec>$/m);
    const replicas = await ok(['explain', 'deployment.spec.replicas']);
    expect(replicas).toMatch(/^GROUP:\s+apps$/m);
    expect(replicas).toMatch(/^FIELD:\s+replicas <integer>$/m);
  });
});

describe('kubectl get', () => {
  // Created once, on first use, from inside each test: a failure shows up as a failed test
  // (vitest would report every test of the block as skipped if a beforeAll failed).
  let created: Promise<string> | undefined;
  const pods = async () => {
    // The simulated nodes run them: wait until both are Ready.
    created ??= ok(['create', '-f', c.fixture('pods.yaml')]).then(async (out) => (await ok(['wait', '--for=condition=Ready', 'pod/web-1', 'pod/db-1', '--timeout=60s']), out));
    expect(await created).toBe('pod/web-1 created\npod/db-1 created\n');
  };

  it('get pods prints a table of the namespace', async () => {
    await pods();
    const out = await ok(['get', 'pods']);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['db-1', 'web-1']);
    expect(out).toMatch(/^web-1\s+1\/1\s+Running\s+0\s+\d+s$/m);
  });

  it('get all includes the pods', async () => {
    await pods();
    const out = await ok(['get', 'all']);
    expect(out).toMatch(/^pod\/web-1\s+1\/1\s+Running/m);
    expect(out).toMatch(/^pod\/db-1\s+/m);
  });

  it('get pods -A adds the namespace column', async () => {
    await pods();
    const out = await ok(['get', 'pods', '-A']);
    expect(out).toMatch(/^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/m);
    expect(out).toMatch(/^default\s+web-1\s+1\/1\s+Running/m);
  });

  it('-o yaml and -o json print a List of the objects', async () => {
    await pods();
    const y = parseYaml(await ok(['get', 'pods', '-o', 'yaml']));
    expect(y.kind).toBe('List');
    expect(y.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(['db-1', 'web-1']);
    expect(y.items[1]).toMatchObject({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } });
    const j = JSON.parse(await ok(['get', 'pods', '-o', 'json']));
    expect(j.kind).toBe('List');
    expect(j.items[0].metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(j.items[0].metadata.resourceVersion).toMatch(/^\d+$/);
  });

  it('-o wide, -o name and -o jsonpath', async () => {
    await pods();
    expect(await ok(['get', 'pods', '-o', 'wide'])).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/m);
    expect(await ok(['get', 'pods', '-o', 'name'])).toBe('pod/db-1\npod/web-1\n');
    expect(await ok(['get', 'pods', '-o', 'jsonpath={.items[*].metadata.name}'])).toBe('db-1 web-1');
  });

  it('-l and --field-selector filter on the server', async () => {
    await pods();
    expect(await ok(['get', 'pods', '-l', 'app=web', '-o', 'name'])).toBe('pod/web-1\n');
    expect(await ok(['get', 'pods', '-l', 'app!=web', '-o', 'name'])).toBe('pod/db-1\n');
    expect(await ok(['get', 'pods', '--field-selector', 'metadata.name=db-1', '-o', 'name'])).toBe('pod/db-1\n');
    const none = await c.kubectl(['get', 'pods', '-l', 'app=nothing']);
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('No resources found in default namespace.');
  });

  it('--show-labels adds the LABELS column', async () => {
    await pods();
    const out = await ok(['get', 'pods', '--show-labels']);
    expect(out).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+LABELS$/m);
    expect(out).toMatch(/^web-1\s+.*\s+app=web$/m);
  });
});

describe('kubectl writes', () => {
  it('create -f creates, a second create is AlreadyExists, replace -f replaces', async () => {
    expect(await ok(['create', '-f', c.fixture('configmap.yaml')])).toBe('configmap/cm-create created\n');
    expect(await jsonpath('cm', 'cm-create', '.data.a')).toBe('1');
    const again = await c.kubectl(['create', '-f', c.fixture('configmap.yaml')]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('configmaps "cm-create" already exists');
    expect(await ok(['replace', '-f', c.fixture('configmap-replace.yaml')])).toBe('configmap/cm-create replaced\n');
    expect(await jsonpath('cm', 'cm-create', '.data')).toBe('{"a":"replaced"}');
  });

  it('apply -f creates a missing object and records last-applied-configuration', async () => {
    expect(await ok(['apply', '-f', c.fixture('configmap-apply.yaml')])).toBe('configmap/cm-apply created\n');
    expect(await jsonpath('cm', 'cm-apply', '.data.greeting')).toBe('hello');
    const last = JSON.parse(await jsonpath('cm', 'cm-apply', String.raw`.metadata.annotations.kubectl\.kubernetes\.io/last-applied-configuration`));
    expect(last).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cm-apply' }, data: { greeting: 'hello' } });
    expect(await ok(['apply', '-f', c.fixture('configmap-apply.yaml')])).toBe('configmap/cm-apply unchanged\n');
  });

  it('label and annotate add and remove metadata', async () => {
    await ok(['create', 'configmap', 'cm-meta', '--from-literal=a=1']);
    expect(await ok(['label', 'cm', 'cm-meta', 'env=prod'])).toBe('configmap/cm-meta labeled\n');
    expect(await jsonpath('cm', 'cm-meta', '.metadata.labels.env')).toBe('prod');
    expect(await ok(['annotate', 'cm', 'cm-meta', 'owner=team-a'])).toBe('configmap/cm-meta annotated\n');
    expect(await jsonpath('cm', 'cm-meta', '.metadata.annotations.owner')).toBe('team-a');
    expect(await ok(['label', 'cm', 'cm-meta', 'env-'])).toBe('configmap/cm-meta unlabeled\n');
    expect(await jsonpath('cm', 'cm-meta', '.metadata.labels')).toBe('');
  });

  it('patch --type merge and --type json', async () => {
    await ok(['create', 'configmap', 'cm-patch', '--from-literal=a=1']);
    expect(await ok(['patch', 'cm', 'cm-patch', '--type', 'merge', '-p', '{"data":{"b":"2"}}'])).toBe('configmap/cm-patch patched\n');
    expect(await jsonpath('cm', 'cm-patch', '.data')).toBe('{"a":"1","b":"2"}');
    expect(await ok(['patch', 'cm', 'cm-patch', '--type', 'json', '-p', '[{"op":"remove","path":"/data/a"},{"op":"add","path":"/data/c","value":"3"}]'])).toBe('configmap/cm-patch patched\n');
    expect(await jsonpath('cm', 'cm-patch', '.data')).toBe('{"b":"2","c":"3"}');
    const bad = await c.kubectl(['patch', 'cm', 'missing', '--type', 'merge', '-p', '{}']);
    expectNotFound(bad, 'configmaps', 'missing');
  });

  it('create -f a Deployment and scale it', async () => {
    expect(await ok(['create', '-f', c.fixture('deployment.yaml')])).toBe('deployment.apps/web created\n');
    expect(await ok(['scale', 'deploy', 'web', '--replicas=3'])).toBe('deployment.apps/web scaled\n');
    expect(await jsonpath('deployment', 'web', '.spec.replicas')).toBe('3');
    // kubectl scale writes through /scale: its manager carries that subresource.
    expect(await jsonpath('deployment', 'web', '.metadata.managedFields[?(@.subresource=="scale")].manager')).toBe('kubectl');
    expect(await ok(['get', 'all', '-o', 'name'])).toContain('deployment.apps/web\n');
  });
});

describe('kubectl logs and exec without kubelets', () => {
  it('logs of a pod no node runs print nothing; exec says the pod has no host', async () => {
    // A node selector no simulated node matches keeps the pod unscheduled.
    await ok(['run', 'idle', '--image=nginx', '--overrides', JSON.stringify({ spec: { nodeSelector: { 'example.com/no-such-node': 'true' } } })]);
    expect(await ok(['logs', 'idle'])).toBe('');
    const exec = await c.kubectl(['exec', 'idle', '--', 'ls']);
    expect(exec.code).toBe(1);
    expect(exec.stderr).toContain('Error from server (BadRequest): pod idle does not have a host assigned');
  });

  it('debug adds an ephemeral container through pods/ephemeralcontainers', async () => {
    await ok(['run', 'debugged', '--image=nginx']);
    const r = await c.kubectl(['debug', 'debugged', '--image=busybox', '--container=dbg', '--target=debugged', '--profile=general']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Targeting container "debugged"');
    const spec = JSON.parse(await ok(['get', 'pod', 'debugged', '-o', 'jsonpath={.spec.ephemeralContainers[0]}']));
    expect(spec).toMatchObject({ name: 'dbg', image: 'busybox', targetContainerName: 'debugged', imagePullPolicy: 'Always' });
    const again = await c.kubectl(['debug', 'debugged', '--image=busybox', '--container=dbg', '--profile=general']);
    expect(again.code).toBe(1);
    // The patch merges by name, so reusing one changes it.
    expect(again.stderr).toContain('The Pod "debugged" is invalid: spec.ephemeralContainers.dbg: Forbidden: existing ephemeral containers "dbg" may not be changed');
  });
});

describe('kubectl delete', () => {
  it('deletes an object; a later get is NotFound', async () => {
    await ok(['create', 'configmap', 'cm-gone', '--from-literal=a=1']);
    expect(await ok(['delete', 'cm', 'cm-gone'])).toMatch(/^configmap "cm-gone" deleted/);
    expectNotFound(await c.kubectl(['get', 'cm', 'cm-gone']), 'configmaps', 'cm-gone');
  });

  it('a finalizer holds the object until a json patch removes it; the waiting delete then returns', async () => {
    expect(await ok(['create', '-f', c.fixture('configmap-finalizer.yaml')])).toBe('configmap/cm-held created\n');
    const deleting = c.kubectl(['delete', 'cm', 'cm-held', '--timeout=60s']);
    const ts = await eventually(async () => {
      const t = await jsonpath('cm', 'cm-held', '.metadata.deletionTimestamp');
      if (!t) throw new Error('no deletionTimestamp yet');
      return t;
    });
    expect(ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(await ok(['patch', 'cm', 'cm-held', '--type', 'json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]'])).toBe('configmap/cm-held patched\n');
    const r = await deleting;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^configmap "cm-held" deleted/);
    expectNotFound(await c.kubectl(['get', 'cm', 'cm-held']), 'configmaps', 'cm-held');
  });

  it('a finalizer removed with a merge patch releases an object deleted with --wait=false', async () => {
    const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-held-2\n  finalizers: ["example.com/hold"]\n';
    expect(await ok(['create', '-f', '-'], manifest)).toBe('configmap/cm-held-2 created\n');
    expect(await ok(['delete', 'cm', 'cm-held-2', '--wait=false'])).toMatch(/^configmap "cm-held-2" deleted/);
    expect(await jsonpath('cm', 'cm-held-2', '.metadata.finalizers')).toBe('["example.com/hold"]');
    expect(await ok(['patch', 'cm', 'cm-held-2', '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}'])).toBe('configmap/cm-held-2 patched\n');
    await eventually(async () => expectNotFound(await c.kubectl(['get', 'cm', 'cm-held-2']), 'configmaps', 'cm-held-2'));
  });

  it('deleting a namespace removes it with its contents', async () => {
    expect(await ok(['create', '-f', c.fixture('namespace-with-contents.yaml')])).toBe('namespace/team-a created\nconfigmap/settings created\nsecret/token created\n');
    expect(await jsonpath('cm', 'settings', '.data.mode', ['-n', 'team-a'])).toBe('test');
    expect(await ok(['delete', 'namespace', 'team-a', '--timeout=60s'])).toMatch(/^namespace "team-a" deleted/);
    expectNotFound(await c.kubectl(['get', 'namespace', 'team-a']), 'namespaces', 'team-a');
    const left = await c.kubectl(['get', 'cm,secrets', '-n', 'team-a', '-o', 'name']);
    expect(left.stdout).toBe('');
  });
});

describe('kubectl with a CustomResourceDefinition', () => {
  it('create -f crd.yaml, then create, get, patch and delete the custom kind', async () => {
    expect(await ok(['create', '-f', c.fixture('crd.yaml')])).toBe('customresourcedefinition.apiextensions.k8s.io/widgets.example.com created\n');
    expect(await eventually(() => ok(['create', '-f', c.fixture('widget.yaml')]))).toBe('widget.example.com/w1 created\n');
    const table = await ok(['get', 'widgets']);
    expect(table).toMatch(/^NAME\s+AGE$/m);
    expect(table).toMatch(/^w1\s+\d+s$/m);
    expect(await jsonpath('wd', 'w1', '.spec.size')).toBe('3');
    expect(await ok(['get', 'widgets', '-l', 'app=e2e', '-o', 'name'])).toBe('widget.example.com/w1\n');
    expect(await ok(['patch', 'widget', 'w1', '--type', 'merge', '-p', '{"spec":{"size":5}}'])).toBe('widget.example.com/w1 patched\n');
    expect(await jsonpath('widget', 'w1', '.spec.size')).toBe('5');
    // Custom resources do not support strategic merge patch: the server answers 415.
    const smp = await c.kubectl(['patch', 'widget', 'w1', '-p', '{"spec":{"size":6}}']);
    expect(smp.code).toBe(1);
    expect(smp.stderr).toContain('application/strategic-merge-patch+json is not supported by example.com/v1, Kind=Widget');
    expect(await ok(['delete', 'widget', 'w1'])).toMatch(/^widget\.example\.com "w1" deleted/);
    expectNotFound(await c.kubectl(['get', 'widget', 'w1']), 'widgets.example.com', 'w1');
  });
});
