// The browser host end to end: the API answered by the Service Worker, from the page with plain
// fetch. Same cases as the Node host; watch streams; state across reloads and forced worker
// stops; two tabs; offline. One browser and one built site for the whole file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApiServer, type ApiServer } from '../../src/core/api';
import { startNodeHost, type NodeHost } from '../../src/hosts/node/server';
import { buildAndServe, json, launchBrowser, openApp, pageFetch, stopServiceWorkers, waitReady, type Site } from './harness';
import { STEPS, normalize, runSteps } from './api-cases';

let site: Site;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const CM = 'api/v1/namespaces/default/configmaps';
const createCm = (p: Page, name: string, ns = 'default') =>
  pageFetch(p, `api/v1/namespaces/${ns}/configmaps`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { n: name } }) });

/** Starts a watch inside the page; its lines collect in window.__watches[id]. */
async function startWatch(p: Page, id: string, path: string): Promise<void> {
  await p.evaluate(
    ({ id, path }) => {
      const w = window as unknown as { __watches?: Record<string, { lines: string[]; ended: string }> };
      const state = { lines: [] as string[], ended: '' };
      (w.__watches ??= {})[id] = state;
      void (async () => {
        try {
          const res = await fetch(new URL(path, document.baseURI));
          const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
          let buf = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += value;
            let nl;
            while ((nl = buf.indexOf('\n')) >= 0) {
              state.lines.push(buf.slice(0, nl));
              buf = buf.slice(nl + 1);
            }
          }
          state.ended = 'done';
        } catch (e) {
          state.ended = `error: ${String(e)}`;
        }
      })();
    },
    { id, path },
  );
}

type WatchEvent = { type: string; object: { metadata: { name?: string; resourceVersion: string } } };
const watchState = (p: Page, id: string) =>
  p.evaluate((id) => (window as unknown as { __watches: Record<string, { lines: string[]; ended: string }> }).__watches[id]!, id).then((s) => ({ events: s.lines.map((l) => JSON.parse(l) as WatchEvent), ended: s.ended }));

async function waitForWatch(p: Page, id: string, until: (s: { events: WatchEvent[]; ended: string }) => boolean, timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = await watchState(p, id);
    if (until(s)) return s;
    if (Date.now() > end) throw new Error(`watch ${id} timed out: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  site = await buildAndServe('/');
  browser = await launchBrowser();
  context = await browser.newContext();
  ({ page } = await openApp(context, site.url));
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('browser host', () => {
  it('starts with persistent storage and serves the page', async () => {
    const status = await waitReady(page);
    expect(status.mode).toBe('persistent');
    expect(status.storageError).toBe('');
    expect(await page.textContent('[data-testid=mode]')).toContain('persistent');
    const version = await pageFetch(page, 'version');
    expect(version.status).toBe(200);
    expect(JSON.parse(version.body)).toMatchObject({ major: '1', minor: '23' });
    // Not an API path: passed through to the static server.
    expect((await pageFetch(page, 'no-such-file.txt')).status).toBe(404);
  });

  it('answers the shared cases exactly like the Node host', async () => {
    const browserResults = await page.evaluate(runSteps, { root: site.url, steps: STEPS });
    let api: ApiServer | undefined;
    let host: NodeHost | undefined;
    try {
      // As `npm run serve` runs it: the simulated cluster on.
      api = await createApiServer({ controllers: '*' });
      host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
      const nodeResults = await runSteps({ root: `${host.url}/`, steps: STEPS });
      expect(browserResults.map((r) => [r.name, r.status])).toEqual(STEPS.map((s) => [s.name, s.status]));
      expect(rankResourceVersions(normalize(browserResults))).toEqual(rankResourceVersions(normalize(nodeResults)));
    } finally {
      await host?.close();
      await api?.close();
    }
    const conflict = browserResults.find((r) => r.name === 'apply conflict as bob')!.body as { reason: string; message: string };
    expect(conflict.reason).toBe('Conflict');
    expect(conflict.message).toContain('.data.owner');
    const page2 = browserResults.find((r) => r.name === 'list page 2')!.body as { items: Array<{ metadata: { name: string } }> };
    // a, b | c and the namespace's kube-root-ca.crt (root-ca-cert-publisher).
    expect(page2.items.map((i) => i.metadata.name)).toEqual(['c', 'kube-root-ca.crt']);
  });

  it('serves /openapi/v2 from the worker: gnostic protobuf, never gzipped for the page', async () => {
    const res = await page.evaluate(async () => {
      const r = await fetch(new URL('openapi/v2', document.baseURI), { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
      const bytes = new Uint8Array(await r.arrayBuffer());
      return { status: r.status, type: r.headers.get('content-type'), encoding: r.headers.get('content-encoding'), etag: r.headers.get('etag'), head: Array.from(bytes.slice(0, 5)), length: bytes.length };
    });
    expect(res).toMatchObject({ status: 200, type: 'application/octet-stream', encoding: null });
    expect(res.etag).toMatch(/^"[0-9A-F]{128}"$/);
    // Field 1 (swagger), length 3, "2.0".
    expect(res.head).toEqual([0x0a, 3, 0x32, 0x2e, 0x30]);
    expect(res.length).toBeGreaterThan(100_000);
  });

  it('streams a watch to a reader and ends it with a final BOOKMARK', async () => {
    const rv = json(await pageFetch(page, CM)).metadata.resourceVersion;
    await startWatch(page, 'w1', `${CM}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=3`);
    await createCm(page, 'w1-a');
    await pageFetch(page, `${CM}/w1-a`, { method: 'DELETE' });
    const s = await waitForWatch(page, 'w1', (x) => x.ended !== '');
    expect(s.ended).toBe('done');
    expect(s.events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`)).toEqual(['ADDED w1-a', 'DELETED w1-a', 'BOOKMARK ']);
  });

  it('two tabs share one worker: a write in one appears in the watch of the other', async () => {
    const { page: other } = await openApp(context, site.url);
    const rv = json(await pageFetch(page, CM)).metadata.resourceVersion;
    await startWatch(page, 'tabs', `${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=20`);
    expect((await createCm(other, 'from-other-tab')).status).toBe(201);
    const s = await waitForWatch(page, 'tabs', (x) => x.events.length > 0);
    expect(s.events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'from-other-tab' } } });
    await other.close();
  });

  it('keeps every write across a page reload and a forced worker stop; the revision never goes back', async () => {
    const names = Array.from({ length: 20 }, (_, i) => `persist-${i}`);
    // Writes in flight together (one group commit) right before the stop.
    const results = await page.evaluate(
      (names) => Promise.all(names.map((name) => fetch('api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name } }) }).then((r) => r.status))),
      names,
    );
    expect(results.every((s) => s === 201)).toBe(true);
    const before = Number(json(await pageFetch(page, CM)).metadata.resourceVersion);
    await stopServiceWorkers(page);
    const afterStop = json(await pageFetch(page, CM));
    expect(Number(afterStop.metadata.resourceVersion)).toBeGreaterThanOrEqual(before);
    expect(afterStop.items!.map((i) => i.metadata.name)).toEqual(expect.arrayContaining(names));
    await page.reload();
    await waitReady(page);
    const afterReload = json(await pageFetch(page, CM));
    expect(afterReload.items!.map((i) => i.metadata.name)).toEqual(expect.arrayContaining(names));
    // A new write gets a higher revision than anything seen before the stop.
    const created = json(await createCm(page, 'after-stop'));
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(before);
  });

  it('a watch across a forced worker stop ends; resuming from its last resourceVersion delivers each change once', async () => {
    const rv = json(await pageFetch(page, CM)).metadata.resourceVersion;
    await startWatch(page, 'stop', `${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=60`);
    await createCm(page, 'before-stop');
    const seen = await waitForWatch(page, 'stop', (x) => x.events.length === 1);
    await stopServiceWorkers(page);
    const ended = await waitForWatch(page, 'stop', (x) => x.ended !== '');
    expect(ended.events.map((e) => e.object.metadata.name)).toEqual(['before-stop']);
    const last = seen.events[0]!.object.metadata.resourceVersion;
    // Changes while the watch is gone (they start the worker again).
    await createCm(page, 'gap-1');
    await pageFetch(page, `${CM}/before-stop`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"data":{"x":"y"}}' });
    await createCm(page, 'gap-2');
    await startWatch(page, 'resume', `${CM}?watch=1&resourceVersion=${last}&timeoutSeconds=2`);
    const resumed = await waitForWatch(page, 'resume', (x) => x.ended !== '');
    expect(resumed.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED gap-1', 'MODIFIED before-stop', 'ADDED gap-2']);
  });

  it('after a worker stop, a watch from before a batch of creates replays them from storage, in order', async () => {
    // Creates in one group commit write no history record (IndexedDB layout 3): their events are
    // rebuilt from the object records and from the update that follows.
    const rv = json(await pageFetch(page, CM)).metadata.resourceVersion;
    const statuses = await page.evaluate(
      (names) => Promise.all(names.map((name) => fetch('api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name } }) }).then((r) => r.status))),
      ['replay-1', 'replay-2', 'replay-3'],
    );
    expect(statuses).toEqual([201, 201, 201]);
    await pageFetch(page, `${CM}/replay-2`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"data":{"x":"y"}}' });
    const live = (json(await pageFetch(page, CM)).items as Array<{ metadata: { name: string; resourceVersion: string } }>).filter((i) => i.metadata.name.startsWith('replay-'));
    await stopServiceWorkers(page);
    await startWatch(page, 'replay', `${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=2`);
    const replayed = await waitForWatch(page, 'replay', (x) => x.ended !== '');
    const events = replayed.events.filter((e) => e.object.metadata.name?.startsWith('replay-'));
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['ADDED replay-1', 'ADDED replay-2', 'ADDED replay-3', 'MODIFIED replay-2']);
    // In revision order, each with the object as it was then.
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ type: 'MODIFIED', object: { data: { x: 'y' } } });
    expect(events.find((e) => e.type === 'ADDED' && e.object.metadata.name === 'replay-2')!.object).not.toHaveProperty('data');
    const latest = new Map(events.map((e) => [e.object.metadata.name, e.object.metadata.resourceVersion]));
    expect(live.map((i) => latest.get(i.metadata.name))).toEqual(live.map((i) => i.metadata.resourceVersion));
  });

  it('a watch too old to resume after a worker stop gets 410 Expired; a relist and a watch from it carry on', async () => {
    // A short --history-window (the page's settings), so the gap outlives it.
    const applied = await pageFetch(page, '__playground/settings', { method: 'PUT', body: JSON.stringify({ historyWindow: '1s' }) });
    expect(applied.status).toBe(200);
    try {
      const rv = json(await pageFetch(page, CM)).metadata.resourceVersion;
      await startWatch(page, 'old', `${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=60`);
      await createCm(page, 'expiring-1');
      const seen = await waitForWatch(page, 'old', (x) => x.events.length === 1);
      await stopServiceWorkers(page);
      await waitForWatch(page, 'old', (x) => x.ended !== '');
      const last = seen.events[0]!.object.metadata.resourceVersion;
      await createCm(page, 'expiring-2');
      // Longer than the window plus one compaction period (a quarter of the window, at least 1 s).
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await createCm(page, 'expiring-3');

      await startWatch(page, 'expired', `${CM}?watch=1&resourceVersion=${last}&timeoutSeconds=5`);
      const expired = await waitForWatch(page, 'expired', (x) => x.ended !== '');
      expect(expired.events).toHaveLength(1);
      expect(expired.events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 } });
      expect((expired.events[0]!.object as unknown as { message: string }).message).toMatch(new RegExp(`^too old resource version: ${last} \\(\\d+\\)$`));

      // The client relists and watches from the list's resourceVersion: every change since is there.
      const relist = json(await pageFetch(page, CM));
      expect(relist.items!.map((i) => i.metadata.name)).toEqual(expect.arrayContaining(['expiring-1', 'expiring-2', 'expiring-3']));
      await startWatch(page, 'relisted', `${CM}?watch=1&resourceVersion=${relist.metadata.resourceVersion}&timeoutSeconds=3`);
      await createCm(page, 'after-relist');
      const resumed = await waitForWatch(page, 'relisted', (x) => x.ended !== '');
      expect(resumed.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED after-relist']);
    } finally {
      expect((await pageFetch(page, '__playground/settings', { method: 'PUT', body: JSON.stringify({ historyWindow: '' }) })).status).toBe(200);
    }
  });

  it('works offline after the first visit (app shell and API)', async () => {
    await context.setOffline(true);
    await site.close().catch(() => undefined);
    await page.reload();
    const status = await waitReady(page);
    expect(status.mode).toBe('persistent');
    const res = await pageFetch(page, `${CM}/a`);
    expect(res.status).toBe(200);
    expect(json(res).metadata.name).toBe('a');
  });
});

/**
 * Both clusters live (node heartbeats write Leases every 10 s), so the revisions the steps see
 * differ by however many background writes came first or in between. What must match is their
 * order: each resourceVersion becomes its rank among the ones the results hold.
 */
function rankResourceVersions(value: unknown): unknown {
  const seen = new Set<number>();
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'resourceVersion' && typeof x === 'string' && /^\d+$/.test(x)) seen.add(Number(x));
        else collect(x);
      }
    }
  };
  collect(value);
  const rank = new Map([...seen].sort((a, b) => a - b).map((rv, i) => [String(rv), `rv#${i + 1}`]));
  const replace = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(replace);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'resourceVersion' && typeof x === 'string' && rank.has(x) ? rank.get(x) : replace(x)]));
    return v;
  };
  return replace(value);
}
