// Old-against-new check of create answers and stored text (decision 0056): this checkout's
// in-memory API and another checkout's (`--base DIR`), both loaded in this process, are sent the
// same varied creates (odd keys, quantities, reversed field order, unknown and mistyped fields,
// dry runs, errors); every answer (status, headers but Audit-Id, body) and the stored text read
// back must match byte for byte once uids, timestamps, revisions and generated names are masked.
//   npx tsx bench/create-answers-ab.ts --base ../base
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ApiRequest, ApiResponse } from '../src/core/meta/types';

interface Api {
  handle(r: ApiRequest): Promise<ApiResponse>;
  close(): Promise<void>;
}
type Make = (opts: { namespaceDeletionGracePeriodMs: number }) => Promise<Api>;

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Fields in reverse order at every level: Go's order must come from the writer. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).reverse()) Object.defineProperty(out, k, { value: reversed((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

const podSpec = (name: string) => ({
  containers: [
    { name, image: 'nginx:1.25', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP', name: 'dns' }], resources: { requests: { cpu: 0.5, memory: '1.5Gi' }, limits: { cpu: '1', memory: '2Gi', 'example.com/gpu': 1 } }, env: [{ name: 'A', value: '1' }], args: [], volumeMounts: [{ name: 'v', mountPath: '/v' }] },
  ],
  volumes: [{ name: 'v', emptyDir: {} }],
  nodeSelector: {},
  tolerations: [],
});
const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: { app: name, 'example.com/tier': 'web' }, annotations: { note: 'x' } },
  spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: podSpec('web') } },
});

type Case = { name: string; method?: string; url: string; body: string | object; contentType?: string };
const cm = '/api/v1/namespaces/default/configmaps';
const cases: Case[] = [
  { name: 'configmap', url: cm, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: { app: 'bench' } }, data: { 'settings.json': '{"mode":"bench"}', greeting: 'hello' } } },
  { name: 'configmap odd keys', url: cm, body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b","labels":{},"annotations":{"z":"1","a":"2"}},"data":{"__proto__":"p","10":"x","2":"y","constructor":"c","é":"\\u2028"},"binaryData":{}}' },
  { name: 'configmap reversed', url: cm, body: reversed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { b: '1', a: '2' }, finalizers: ['example.com/f'] }, data: { y: '1', x: '2' }, immutable: false }) as object },
  { name: 'configmap generateName', url: cm, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } } },
  { name: 'configmap other namespace', url: '/api/v1/namespaces/other/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } },
  { name: 'configmap missing namespace', url: '/api/v1/namespaces/nowhere/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } },
  { name: 'configmap exists', url: cm, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } } },
  { name: 'configmap dry run', url: `${cm}?dryRun=All`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' }, data: { k: 'v' } } },
  { name: 'configmap unknown field warn', url: cm, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u', bogus: 1 }, data: { k: 'v' }, extra: { x: 1 } } },
  { name: 'configmap unknown field strict', url: `${cm}?fieldValidation=Strict`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'u2' }, extra: 1 } },
  { name: 'configmap duplicate key', url: cm, body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"k":"1","k":"2"}}' },
  { name: 'configmap bad label', url: cm, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad', labels: { 'a/b/c': 'x', ok: '-bad-' } } } },
  { name: 'configmap wrong type', url: cm, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wt' }, data: { k: 1 } } },
  { name: 'configmap field manager', url: `${cm}?fieldManager=tester`, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fm' }, data: { k: 'v' } } },
  { name: 'configmap yaml', url: cm, contentType: 'application/yaml', body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: v\n' },
  { name: 'secret', url: '/api/v1/namespaces/default/secrets', body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { a: 'b' }, data: { c: 'ZA==' }, type: 'Opaque' } },
  { name: 'deployment', url: '/apis/apps/v1/namespaces/default/deployments', body: deployment('d1') },
  { name: 'deployment reversed', url: '/apis/apps/v1/namespaces/default/deployments', body: reversed(deployment('d2')) as object },
  { name: 'deployment mistyped', url: '/apis/apps/v1/namespaces/default/deployments', body: { ...deployment('d3'), spec: { ...deployment('d3').spec, replicas: 'two' } } },
  { name: 'deployment invalid', url: '/apis/apps/v1/namespaces/default/deployments', body: { ...deployment('d4'), spec: { ...deployment('d4').spec, selector: { matchLabels: { other: 'x' } } } } },
  { name: 'pod', url: '/api/v1/namespaces/default/pods', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'a', uid: '00000000-0000-0000-0000-000000000001' }] }, spec: podSpec('c') } },
  { name: 'pod bad quantity', url: '/api/v1/namespaces/default/pods', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p2' }, spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1x', 'bad name': '1' } } }] } } },
  { name: 'pod null container', url: '/api/v1/namespaces/default/pods', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p3' }, spec: { containers: [null] } } },
  { name: 'service', url: '/api/v1/namespaces/default/services', body: { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { selector: { app: 'x' }, ports: [{ port: 80, targetPort: 'http' }] } } },
  { name: 'job', url: '/apis/batch/v1/namespaces/default/jobs', body: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  { name: 'namespace', url: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'third', labels: { team: 'a' } } } },
  { name: 'clusterrole', url: '/apis/rbac.authorization.k8s.io/v1/clusterroles', body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'cr' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] } },
];

/** Values that differ run to run on either side: uids, times, revisions, generated names, cluster IPs. */
function masked(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g, 'UID')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, 'TIME')
    .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"RV"')
    .replace(/gen-[a-z0-9]{5}/g, 'gen-XXXXX')
    .replace(/"10\.\d+\.\d+\.\d+"/g, '"IP"');
}

function answerText(res: ApiResponse): string {
  const headers = Object.entries(res.headers).filter(([k]) => k !== 'Audit-Id').sort(([a], [b]) => (a < b ? -1 : 1));
  const body = typeof res.body === 'string' ? res.body : res.body instanceof Uint8Array ? dec.decode(res.body) : String(res.body);
  return masked(`${res.status} ${JSON.stringify(headers)}\n${body}`);
}

async function load(root: string): Promise<Make> {
  return ((await import(pathToFileURL(join(root, 'src/core/api.ts')).href)) as { createApiServer: Make }).createApiServer;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--base');
  if (i < 0) throw new Error('--base DIR (a checkout of the old code) is required');
  const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const sides = [await (await load(resolve(process.argv[i + 1]!)))({ namespaceDeletionGracePeriodMs: 0 }), await (await load(here))({ namespaceDeletionGracePeriodMs: 0 })];
  const post = (c: Case): ApiRequest => ({ method: c.method ?? 'POST', url: c.url, headers: { 'content-type': c.contentType ?? 'application/json', accept: 'application/json' }, body: enc.encode(typeof c.body === 'string' ? c.body : JSON.stringify(c.body)) });
  const setup: Case = { name: 'namespace other', url: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } } };
  let compared = 0;
  let differ = 0;
  // Twice: the second round meets every cache the first filled (names, quantities, labels).
  for (const round of [1, 2]) {
    for (const c of [setup, ...cases]) {
      const suffix = round === 2 ? '-2' : '';
      const roundCase = { ...c, body: typeof c.body === 'string' ? c.body.replace(/"name":"([a-z0-9]+)"/, `"name":"$1${suffix}"`).replace(/name: y/, `name: y${suffix}`) : JSON.parse(JSON.stringify(c.body).replace(/"name":"([a-z0-9]+)"/, `"name":"$1${suffix}"`)) };
      const answers: string[] = [];
      const stored: string[] = [];
      for (const api of sides) {
        const res = await api.handle(post(roundCase));
        answers.push(answerText(res));
        // The stored text as a GET answers it (read from storage).
        const name = res.status === 201 ? (JSON.parse(typeof res.body === 'string' ? res.body : '{}') as { metadata?: { name?: string } }).metadata?.name : undefined;
        if (name) stored.push(answerText(await api.handle({ method: 'GET', url: `${c.url.split('?')[0]}/${name}`, headers: { accept: 'application/json' } })));
      }
      compared++;
      if (answers[0] !== answers[1] || stored[0] !== stored[1]) {
        differ++;
        console.log(`DIFFERS round ${round}: ${c.name}\n old: ${answers[0]}\n new: ${answers[1]}\n old stored: ${stored[0]}\n new stored: ${stored[1]}`);
      }
    }
  }
  console.log(`${compared} creates compared, ${differ} differ`);
  for (const api of sides) await api.close();
  if (differ) process.exitCode = 1;
}

void main();
