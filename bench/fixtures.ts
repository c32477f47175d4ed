// Objects the benchmarks create, shared by the client side and the server process.

/** The list-walk ConfigMap number i (stored text about 500 bytes with system fields). */
export function walkConfigMap(i: number): string {
  return JSON.stringify({ metadata: { name: `cm-${String(i).padStart(5, '0')}`, labels: { app: 'bench', shard: String(i % 16) } }, data: { 'settings.json': '{"mode":"bench","retries":3}', index: String(i) } });
}

/** The browser benchmarks' ConfigMap (its source is also sent into the page with toString). */
export const CONFIGMAP = (name: string) => JSON.stringify({ metadata: { name, labels: { app: 'bench' } }, data: { a: 'x'.repeat(300), b: 'y'.repeat(100) } });
/** The browser benchmarks' Deployment-sized create body. */
export const DEPLOYMENT = (name: string) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: 'x'.repeat(200) }], resources: { requests: { cpu: '100m', memory: '64Mi' } } }] } } },
  });

/** The Deployment of the in-process CPU benchmarks (create-cpu.ts, create-cpu-ab.ts). */
export function cpuBenchDeployment(name: string): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }], resources: { requests: { cpu: '100m' } } }] } },
    },
  };
}
