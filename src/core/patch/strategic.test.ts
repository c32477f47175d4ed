import { describe, expect, it } from 'vitest';
import { ApiError } from '../meta/status';
import { applyStrategicMergePatch } from './strategic';

const DEPLOYMENT = 'io.k8s.api.apps.v1.Deployment';
const CONFIGMAP = 'io.k8s.api.core.v1.ConfigMap';
const POD = 'io.k8s.api.core.v1.Pod';

const apply = (original: unknown, patch: unknown, def = DEPLOYMENT) => applyStrategicMergePatch(original, patch, def);

/** A Deployment as kube stores it, with one nginx container listening on 80. */
function deployment(containers: unknown[] = [nginx()], extraSpec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers, restartPolicy: 'Always' } },
      ...extraSpec,
    },
  };
}

function nginx(extra: Record<string, unknown> = {}) {
  return { name: 'nginx', image: 'nginx:1.25', ports: [{ containerPort: 80, protocol: 'TCP' }], imagePullPolicy: 'IfNotPresent', ...extra };
}

type Dep = ReturnType<typeof deployment>;
const podSpec = (d: unknown) => (d as Dep).spec.template.spec as Record<string, unknown> & { containers: Record<string, unknown>[] };
const names = (list: unknown) => (list as { name: string }[]).map((c) => c.name);

function failure(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return `${e.code} ${e.reason}: ${e.message}`;
    throw e;
  }
  return 'no error';
}

describe('applyStrategicMergePatch — recorded kubectl bodies', () => {
  it('client-side apply of a ConfigMap: null deletes, new keys added, annotation replaced', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'old\n' }, labels: { app: 'demo' } }, data: { a: '1', b: '2' } };
    const patch = { data: { b: null, c: '3' }, metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'new\n' } } };
    expect(apply(cm, patch, CONFIGMAP)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': 'new\n' }, labels: { app: 'demo' } },
      data: { a: '1', c: '3' },
    });
    expect(cm.data).toEqual({ a: '1', b: '2' });
  });

  it('client-side apply of a Deployment with $setElementOrder and a $patch:delete port', () => {
    const patch = JSON.parse(
      '{"metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}\\n"}},"spec":{"replicas":4,"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"},{"name":"sidecar"}],"containers":[{"$setElementOrder/ports":[{"containerPort":8080}],"image":"nginx:1.27","name":"nginx","ports":[{"containerPort":8080},{"$patch":"delete","containerPort":80}]},{"image":"busybox","name":"sidecar"}]}}}}',
    );
    const out = apply(deployment(), patch) as Dep;
    expect(out.spec.replicas).toBe(4);
    expect(out.metadata).toEqual({ name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}\n' } });
    expect(podSpec(out).containers).toEqual([
      { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080 }], imagePullPolicy: 'IfNotPresent' },
      { image: 'busybox', name: 'sidecar' },
    ]);
    expect(JSON.stringify(out)).not.toContain('$');
  });

  it('kubectl set image keeps the other container fields', () => {
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ image: 'nginx:1.28', name: 'nginx' }] } } } };
    const out = apply(deployment(), patch);
    expect(podSpec(out).containers).toEqual([nginx({ image: 'nginx:1.28' })]);
    expect(podSpec(out)).not.toHaveProperty('$setElementOrder/containers');
  });

  it('kubectl set env adds an env list, then merges into it by name', () => {
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'nginx' }], containers: [{ env: [{ name: 'A', value: 'B' }], name: 'nginx' }] } } } };
    const once = apply(deployment(), patch);
    expect(podSpec(once).containers[0].env).toEqual([{ name: 'A', value: 'B' }]);
    const again = apply(once, { spec: { template: { spec: { containers: [{ name: 'nginx', env: [{ name: 'A', value: 'C' }, { name: 'Z', value: '1' }] }] } } } });
    expect(podSpec(again).containers[0].env).toEqual([
      { name: 'A', value: 'C' },
      { name: 'Z', value: '1' },
    ]);
  });

  it('kubectl rollout restart adds the restartedAt annotation next to existing ones', () => {
    const patch = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-21T09:53:44Z' } } } } };
    const fresh = apply(deployment(), patch) as Dep;
    expect(fresh.spec.template.metadata).toEqual({ labels: { app: 'web' }, annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-21T09:53:44Z' } });
    const existing = deployment();
    (existing.spec.template.metadata as Record<string, unknown>).annotations = { keep: 'me', 'kubectl.kubernetes.io/restartedAt': 'old' };
    expect((apply(existing, patch) as Dep).spec.template.metadata).toEqual({
      labels: { app: 'web' },
      annotations: { keep: 'me', 'kubectl.kubernetes.io/restartedAt': '2026-11-21T09:53:44Z' },
    });
  });

  it('kubectl edit / patch / diff bodies on a ConfigMap', () => {
    const cm = { metadata: { name: 'x', resourceVersion: '115' }, data: { a: '1', c: '3' } };
    expect(apply(cm, { data: { a: 'edited' } }, CONFIGMAP)).toEqual({ metadata: { name: 'x', resourceVersion: '115' }, data: { a: 'edited', c: '3' } });
    expect(apply(cm, { data: { b: '2', c: null }, metadata: { resourceVersion: '116' } }, CONFIGMAP)).toEqual({
      metadata: { name: 'x', resourceVersion: '116' },
      data: { a: '1', b: '2' },
    });
  });
});

describe('applyStrategicMergePatch — maps', () => {
  const cases: [string, unknown, unknown, unknown][] = [
    ['merges recursively', { metadata: { labels: { a: '1' } } }, { metadata: { labels: { b: '2' } } }, { metadata: { labels: { a: '1', b: '2' } } }],
    ['null deletes a key', { metadata: { labels: { a: '1', b: '2' } } }, { metadata: { labels: { a: null } } }, { metadata: { labels: { b: '2' } } }],
    ['null for a missing key is ignored', { data: { a: '1' } }, { data: { zz: null } }, { data: { a: '1' } }],
    ['nulls inside a new map are dropped', { metadata: { name: 'x' } }, { metadata: { annotations: { a: null, b: 'x' } } }, { metadata: { name: 'x', annotations: { b: 'x' } } }],
    ['$patch: replace replaces the map', { data: { a: '1', b: '2' } }, { data: { $patch: 'replace', c: '3' } }, { data: { c: '3' } }],
    ['$patch: delete empties the map', { data: { a: '1' }, metadata: { name: 'x' } }, { data: { $patch: 'delete' } }, { data: {}, metadata: { name: 'x' } }],
    ['a type change replaces', { data: { a: '1' } }, { data: 'x' }, { data: 'x' }],
    ['a null patch is a no-op', { data: { a: '1' } }, null, { data: { a: '1' } }],
  ];
  it.each(cases)('%s', (_name, original, patch, want) => {
    expect(apply(original, patch, CONFIGMAP)).toEqual(want);
  });

  it('the replace strategy (PodDisruptionBudget selector) replaces instead of merging', () => {
    const pdb = { spec: { minAvailable: 1, selector: { matchLabels: { app: 'a' }, matchExpressions: [{ key: 'k', operator: 'Exists' }] } } };
    expect(apply(pdb, { spec: { selector: { matchLabels: { app: 'b' } } } }, 'io.k8s.api.policy.v1.PodDisruptionBudget')).toEqual({
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'b' } } },
    });
  });

  it('$retainKeys drops unlisted keys (Deployment strategy → Recreate)', () => {
    const out = apply(deployment(), { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }) as Dep;
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('$retainKeys on volumes (merge,retainKeys) switches the volume source', () => {
    const pod = { spec: { volumes: [{ name: 'v', emptyDir: {} }, { name: 'w', secret: { secretName: 's' } }], containers: [] } };
    const out = apply(pod, { spec: { volumes: [{ name: 'v', $retainKeys: ['configMap', 'name'], configMap: { name: 'cm' } }] } }, POD) as { spec: { volumes: unknown[] } };
    expect(out.spec.volumes).toEqual([
      { name: 'v', configMap: { name: 'cm' } },
      { name: 'w', secret: { secretName: 's' } },
    ]);
  });
});

describe('applyStrategicMergePatch — lists', () => {
  it('appends new containers before the live ones (no $setElementOrder), merging by name', () => {
    const out = apply(deployment(), { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'redis' }] } } } });
    expect(names(podSpec(out).containers)).toEqual(['sidecar', 'nginx']);
  });

  it('merges ports by containerPort and volumeMounts by mountPath', () => {
    const c = nginx({ volumeMounts: [{ name: 'a', mountPath: '/a' }] });
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', ports: [{ containerPort: 80, name: 'http' }], volumeMounts: [{ mountPath: '/a', readOnly: true }] }] } } } };
    const out = podSpec(apply(deployment([c]), patch)).containers[0];
    expect(out.ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }]);
    expect(out.volumeMounts).toEqual([{ name: 'a', mountPath: '/a', readOnly: true }]);
  });

  it('$patch: delete elements remove by merge key', () => {
    const two = deployment([nginx(), { name: 'sidecar', image: 'busybox' }]);
    const out = apply(two, { spec: { template: { spec: { containers: [{ $patch: 'delete', name: 'sidecar' }] } } } });
    expect(podSpec(out).containers).toEqual([nginx()]);
  });

  it('a $patch: replace element replaces the whole list', () => {
    const two = deployment([nginx(), { name: 'sidecar', image: 'busybox' }]);
    const out = apply(two, { spec: { template: { spec: { containers: [{ name: 'only', image: 'x' }, { $patch: 'replace' }] } } } });
    expect(podSpec(out).containers).toEqual([{ name: 'only', image: 'x' }]);
  });

  it('lists without a patch strategy are replaced (args, and tolerations despite list-type)', () => {
    const c = nginx({ args: ['a', 'b'] });
    const d = deployment([c], {});
    podSpec(d).tolerations = [{ key: 'k1', operator: 'Exists' }];
    const out = apply(d, { spec: { template: { spec: { tolerations: [{ key: 'k2', operator: 'Exists' }], containers: [{ name: 'nginx', args: ['c'] }] } } } });
    expect(podSpec(out).tolerations).toEqual([{ key: 'k2', operator: 'Exists' }]);
    expect(podSpec(out).containers[0].args).toEqual(['c']);
  });

  it('finalizers (merge, primitives) are unioned and $deleteFromPrimitiveList removes', () => {
    const cm = { metadata: { name: 'x', finalizers: ['a', 'b'] } };
    expect(apply(cm, { metadata: { finalizers: ['c', 'a'] } }, CONFIGMAP)).toEqual({ metadata: { name: 'x', finalizers: ['c', 'a', 'b'] } });
    expect(apply(cm, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a', 'zz'] } }, CONFIGMAP)).toEqual({ metadata: { name: 'x', finalizers: ['b'] } });
    expect(apply({ metadata: { name: 'x' } }, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } }, CONFIGMAP)).toEqual({ metadata: { name: 'x' } });
  });

  it('$setElementOrder reorders merged lists, live-only elements keep their place', () => {
    const three = deployment([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    const reorder = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'c' }, { name: 'a' }] } } } };
    // b is not listed: it stays ahead of c, which followed it in the live list.
    expect(names(podSpec(apply(three, reorder)).containers)).toEqual(['b', 'c', 'a']);
    const addMiddle = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'n' }, { name: 'b' }, { name: 'c' }], containers: [{ name: 'n', image: 'x' }] } } } };
    expect(names(podSpec(apply(three, addMiddle)).containers)).toEqual(['a', 'n', 'b', 'c']);
    const primitives = { metadata: { finalizers: ['x', 'y'] } };
    expect(apply(primitives, { metadata: { '$setElementOrder/finalizers': ['y', 'x', 'z'], finalizers: ['z'] } }, CONFIGMAP)).toEqual({ metadata: { finalizers: ['y', 'x', 'z'] } });
  });

  it('directives inside values taken over whole never reach the result', () => {
    const bare = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } };
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'n' }], containers: [{ name: 'n', image: 'x', env: null }] } } } };
    expect(apply(bare, patch)).toEqual({ ...bare, spec: { template: { spec: { containers: [{ name: 'n', image: 'x' }] } } } });
  });
});

describe('applyStrategicMergePatch — errors as kube-apiserver answers them', () => {
  const d = deployment();
  const containersPatch = (containers: unknown) => ({ spec: { template: { spec: { containers } } } });
  const cases: [string, unknown, string][] = [
    ['an array body', [1], '400 BadRequest: json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['a string body', 'x', '400 BadRequest: json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['a number body', 3, '400 BadRequest: json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['a missing merge key', containersPatch([{ image: 'httpd' }]), '500 : map: map[image:httpd] does not contain declared merge key: name'],
    ['a $patch: delete without merge key', containersPatch([{ $patch: 'delete', image: 'x' }]), '500 : map: map[$patch:delete image:x] does not contain declared merge key: name'],
    ['an unknown $patch on a map', { spec: { $patch: 'foo' } }, '500 : unknown patch type: foo in map: map[$patch:foo]'],
    ['$patch: merge on a map', { spec: { selector: { $patch: 'merge' } } }, '500 : unknown patch type: merge in map: map[$patch:merge]'],
    ['an unknown $patch in a list', containersPatch([{ $patch: 'foo', name: 'nginx' }]), '500 : unknown patch type: foo in map: map[$patch:foo name:nginx]'],
    ['$patch: merge in a list', containersPatch([{ $patch: 'merge', name: 'nginx' }]), '500 : merging lists cannot yet be specified in the patch'],
    ['$retainKeys that is not a list', { spec: { strategy: { $retainKeys: 'type' } } }, '400 BadRequest: invalid patch format of retainKeys'],
    ['$retainKeys missing a patched key', { spec: { strategy: { $retainKeys: ['type'], rollingUpdate: { maxSurge: 1 } } } }, '400 BadRequest: invalid patch format of retainKeys'],
    ['$deleteFromPrimitiveList without a slash', { metadata: { $deleteFromPrimitiveListfinalizers: ['a'] } }, '400 BadRequest: invalid patch format of primitive list'],
    ['$setElementOrder without a slash', { metadata: { $setElementOrderX: [] } }, '400 BadRequest: invalid patch format of setElementOrder list'],
    ['$setElementOrder that is not a list', { metadata: { '$setElementOrder/finalizers': 'a' } }, '500 : expected a []interface {}, but received a string'],
    [
      '$setElementOrder missing a patched element',
      { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ name: 'b', image: 'x' }] } } } },
      '500 : The order in patch list:\n[map[image:x name:b]]\n doesn\'t match $setElementOrder list:\n[map[name:a]]\n',
    ],
    ['a list of lists', { spec: { template: { spec: { containers: [[1]] } } } }, '500 : list element types are not identical: [[map[image:nginx:1.25 imagePullPolicy:IfNotPresent name:nginx ports:[map[containerPort:80 protocol:TCP]]]] [[1]]]'],
  ];
  it.each(cases)('%s', (_name, patch, want) => {
    expect(failure(() => apply(d, patch))).toBe(want);
  });

  it('lists of lists first in a merge list are a bare 422', () => {
    const cm = { metadata: { finalizers: [] as unknown[] } };
    let err: unknown;
    try {
      apply(cm, { metadata: { finalizers: [['a']] } }, CONFIGMAP);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server rejected our request due to an error in our request',
      reason: 'Invalid',
      details: {},
      code: 422,
    });
  });

  it('500 errors carry no reason in their Status', () => {
    let err: unknown;
    try {
      apply(d, containersPatch([{ image: 'httpd' }]));
    } catch (e) {
      err = e;
    }
    expect((err as ApiError).toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'map: map[image:httpd] does not contain declared merge key: name',
      code: 500,
    });
  });

  it('rejects an unknown root definition as a programming error', () => {
    expect(() => applyStrategicMergePatch({}, {}, 'io.example.Nope')).toThrow('unknown schema definition io.example.Nope');
  });
});
