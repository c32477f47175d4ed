// The Server-Side Apply engine alone, in process: a Deployment-sized object (2 containers, env,
// probes) with two existing managers (an applier and an Update manager). Prints the time per
// operation for a re-apply that changes a field, a no-op re-apply and a conflicting apply.
// Target: apply ≤ 0.5 ms; conflict detection no slower than a successful apply.
// Run: npx tsx bench/ssa-engine.ts
import { applyPatch, type ManagedFieldsEntry, updateManagedFields } from '../src/core/fieldmanager/index';

const schema = { definition: 'io.k8s.api.apps.v1.Deployment' };

function container(name: string, image: string) {
  return {
    name,
    image,
    args: ['--port=8080', '--verbose'],
    ports: [{ containerPort: 8080, name: 'http' }, { containerPort: 9090, name: 'metrics' }],
    env: Array.from({ length: 6 }, (_, i) => ({ name: `VAR_${i}`, value: `value-${i}` })),
    resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, initialDelaySeconds: 5, periodSeconds: 10 },
    readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 5 },
    volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
  };
}

function deployment(replicas: number, image: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web', tier: 'frontend' }, annotations: { owner: 'team-a' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web', tier: 'frontend' } },
        spec: {
          containers: [container('app', image), container('sidecar', 'envoy:1.28')],
          volumes: [{ name: 'config', configMap: { name: 'web-config' } }],
          nodeSelector: { 'kubernetes.io/os': 'linux' },
        },
      },
    },
  };
}

function must(r: ReturnType<typeof applyPatch>): { object: object; managed: ManagedFieldsEntry[] } {
  if ('conflicts' in r) throw new Error('unexpected conflicts');
  return r;
}

// Two existing managers: "deployer" applied the object, "hpa" updated replicas.
const first = must(applyPatch({ applied: deployment(2, 'app:1'), managed: [], manager: 'deployer', apiVersion: 'apps/v1', force: false, time: '2024-01-01T00:00:00Z', schema }));
const scaledObj = { ...first.object, spec: { ...(first.object as any).spec, replicas: 5 } };
const managed: ManagedFieldsEntry[] = updateManagedFields({ old: first.object, next: scaledObj, managed: first.managed, manager: 'hpa', apiVersion: 'apps/v1', time: '2024-01-01T00:01:00Z', schema });
const live = { ...scaledObj, metadata: { ...(scaledObj as any).metadata, managedFields: managed } };

function time(label: string, fn: () => unknown, iterations = 3000): number {
  for (let i = 0; i < 300; i++) fn();
  const start = performance.now();
  for (let i = 0; i < iterations; i++) fn();
  const perOp = (performance.now() - start) / iterations;
  console.log(`${label.padEnd(44)} ${(perOp * 1000).toFixed(1).padStart(7)} µs/op`);
  return perOp;
}

// The deployer's config without replicas (the hpa owns them now).
function config(image: string) {
  const d = deployment(0, image);
  const { replicas: _drop, ...spec } = d.spec;
  return { ...d, spec };
}
const changeApply = (force: boolean) => () => applyPatch({ live, applied: config('app:2'), managed, manager: 'deployer', apiVersion: 'apps/v1', force, time: '2024-01-01T00:02:00Z', schema });

const applyMs = time('apply (image change, 2 managers)', changeApply(false));
time('no-op re-apply', () => applyPatch({ live, applied: config('app:1'), managed, manager: 'deployer', apiVersion: 'apps/v1', force: false, time: '2024-01-01T00:02:00Z', schema }));
const conflictMs = time('conflicting apply (replicas owned by hpa)', () => applyPatch({ live, applied: deployment(3, 'app:1'), managed, manager: 'deployer', apiVersion: 'apps/v1', force: false, time: '2024-01-01T00:02:00Z', schema }));
time('update (kubectl edit of one field)', () => updateManagedFields({ old: live, next: { ...live, spec: { ...live.spec, paused: true } }, managed, manager: 'kubectl-edit', apiVersion: 'apps/v1', time: '2024-01-01T00:03:00Z', schema }));
console.log(`apply target ≤ 0.5 ms: ${applyMs <= 0.5 ? 'met' : 'MISSED'} (${applyMs.toFixed(3)} ms); conflict/apply ratio ${(conflictMs / applyMs).toFixed(2)}`);
