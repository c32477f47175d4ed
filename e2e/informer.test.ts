// A @kubernetes/client-node informer on ConfigMaps against the Node host stays in sync through a
// server-forced watch end (maxWatchSeconds) and through a 410 (it relists). The host runs in this
// process so the test can cap watch length, shorten the history window and hold a re-watch long
// enough for its revision to be compacted away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../src/core/api';
import type { ApiRequest, ApiResponse } from '../src/core/meta/types';
import { startNodeHost, type NodeHost } from '../src/hosts/node/server';

type K8s = typeof import('@kubernetes/client-node');

const CM = '/api/v1/namespaces/default/configmaps';

/** Counts list and watch requests, and can hold watch requests until released. */
class Gate {
  lists = 0;
  watches = 0;
  private held: Array<() => void> | undefined;
  hold(): void {
    this.held = [];
  }
  release(): void {
    const h = this.held ?? [];
    this.held = undefined;
    for (const r of h) r();
  }
  get waiting(): number {
    return this.held?.length ?? 0;
  }
  wrap(api: ApiServer): ApiServer {
    return {
      handle: async (req: ApiRequest): Promise<ApiResponse> => {
        // Only the informer's requests count; the test's own reads carry x-test.
        if (req.method === 'GET' && !req.headers['x-test'] && req.url.startsWith(CM) && !req.url.startsWith(`${CM}/`)) {
          if (/[?&]watch=(1|true)/.test(req.url)) {
            this.watches++;
            if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
          } else this.lists++;
        }
        return api.handle(req);
      },
      beginShutdown: () => api.beginShutdown(),
      close: () => api.close(),
    };
  }
}

let api: ApiServer;
let host: NodeHost;
const gate = new Gate();

beforeAll(async () => {
  // Watches end after 2 s; history older than 1 ms is compacted on the store's 1 s timer.
  api = await createApiServer({ maxWatchSeconds: 2, historyWindowMs: 1 });
  host = await startNodeHost({ port: 0, host: '127.0.0.1', api: gate.wrap(api) });
});
afterAll(async () => {
  await host?.close();
  await api?.close();
});

async function http(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: any }> {
  const res = await fetch(host.url + path, { method, headers: { 'content-type': contentType, 'x-test': '1' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

async function serverState(): Promise<Record<string, string>> {
  const r = await http('GET', CM);
  return Object.fromEntries((r.json.items as any[]).map((i) => [i.metadata.name, i.metadata.resourceVersion]));
}

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('client-node informer', () => {
  it('stays in sync through server-forced watch ends and a 410 Gone (relist)', async () => {
    const k8s: K8s = await import('@kubernetes/client-node');
    const kc = new k8s.KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'local', server: host.url, skipTLSVerify: true }],
      users: [{ name: 'anon' }],
      contexts: [{ name: 'local', cluster: 'local', user: 'anon' }],
      currentContext: 'local',
    });
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const informer = k8s.makeInformer(kc, CM, () => core.listNamespacedConfigMap({ namespace: 'default' }));
    const errors: unknown[] = [];
    informer.on('error', (err) => errors.push(err));
    // Sorted by name like the server's list: the cache keeps insertion order, and the namespace's
    // kube-root-ca.crt (listed first) sorts after objects created later.
    const cacheState = () => Object.fromEntries(informer.list().map((o) => [o.metadata!.name!, o.metadata!.resourceVersion!]).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
    const inSync = async () => JSON.stringify(cacheState()) === JSON.stringify(await serverState());

    for (const n of ['a', 'b']) expect((await http('POST', CM, { metadata: { name: n }, data: { v: '1' } })).status).toBe(201);
    await informer.start();
    try {
      await until(inSync, 'the initial list');
      expect(gate.lists).toBe(1);

      // Changes while watching, then across at least two server-forced watch ends (2 s each).
      const watchesBefore = gate.watches;
      expect((await http('POST', CM, { metadata: { name: 'c' } })).status).toBe(201);
      await until(inSync, 'ADDED c');
      await until(() => gate.watches >= watchesBefore + 2, 'the server to end the watch twice');
      expect((await http('PATCH', `${CM}/a`, { data: { v: '2' } }, 'application/merge-patch+json')).status).toBe(200);
      expect((await http('DELETE', `${CM}/b`)).status).toBe(200);
      await until(inSync, 'MODIFIED a, DELETED b after resumes');
      // Resuming from the last seen revision needs no relist.
      expect(gate.lists).toBe(1);

      // Hold the next re-watch, change things meanwhile, and let compaction pass the informer's revision.
      gate.hold();
      await until(() => gate.waiting > 0, 'the informer to re-watch');
      expect((await http('POST', CM, { metadata: { name: 'd' } })).status).toBe(201);
      expect((await http('DELETE', `${CM}/c`)).status).toBe(200);
      expect((await http('PATCH', `${CM}/a`, { data: { v: '3' } }, 'application/merge-patch+json')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1300));
      gate.release();
      // The resumed watch gets an ERROR 410; the informer relists and catches up.
      await until(() => gate.lists >= 2, 'a relist after 410');
      await until(inSync, 'the state after the relist');
      expect(Object.keys(cacheState()).sort()).toEqual(['a', 'd', 'kube-root-ca.crt']);
      expect(informer.get('a', 'default')?.data).toEqual({ v: '3' });
      expect(errors).toEqual([]);
    } finally {
      await informer.stop();
    }
  }, 60_000);
});
