import { describe, expect, it } from 'vitest';
import { createApiClient } from './api';
import { KubeApiError } from './api-errors';
import { readJsonLines } from './ndjson';
import { resumingWatch, type WatchItem } from './watch';

/** A streamed body made of these chunks (split anywhere, like the network does). */
function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      c.close();
    },
  });
}
const ev = (type: string, name: string, rv: string) => JSON.stringify({ type, object: { kind: 'ConfigMap', metadata: { name, namespace: 'ns', resourceVersion: rv } } }) + '\n';
const configmaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true };

function fakeFetch(answers: Array<() => Response>) {
  const urls: string[] = [];
  const fn = async (input: RequestInfo | URL) => {
    urls.push(String(input));
    const a = answers.shift();
    if (!a) throw new Error(`unexpected ${String(input)}`);
    return a();
  };
  return { fetch: fn as typeof fetch, urls };
}
const summary = (items: WatchItem[]) => items.map((i) => (i.type === 'RELIST' ? `RELIST@${i.resourceVersion}:${i.items.length}` : `${i.type}:${i.object.metadata?.name}@${i.object.metadata?.resourceVersion}`));

async function take(gen: AsyncGenerator<WatchItem>, n: number): Promise<WatchItem[]> {
  const out: WatchItem[] = [];
  for await (const item of gen) {
    out.push(item);
    if (out.length === n) break;
  }
  return out;
}

describe('readJsonLines', () => {
  it('yields one value per line whatever the chunking, skipping blank lines', async () => {
    const all = ev('ADDED', 'a', '1') + '\n' + ev('DELETED', 'b', '2');
    const chunks = [all.slice(0, 7), all.slice(7, 50), all.slice(50)];
    const out: unknown[] = [];
    for await (const v of readJsonLines(streamOf(chunks))) out.push(v);
    expect(out.map((v) => (v as { type: string }).type)).toEqual(['ADDED', 'DELETED']);
  });

  it('handles a multi-byte character split across chunks and a last line without newline', async () => {
    const bytes = new TextEncoder().encode('{"v":"é"}\n{"v":2}');
    const body = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(bytes.slice(0, 7)); c.enqueue(bytes.slice(7)); c.close(); } });
    const out: unknown[] = [];
    for await (const v of readJsonLines(body)) out.push(v);
    expect(out).toEqual([{ v: 'é' }, { v: 2 }]);
  });
});

describe('client.watch', () => {
  it('watches from a version, follows bookmarks and resumes from the last version when the stream ends', async () => {
    const f = fakeFetch([
      () => new Response(streamOf([ev('ADDED', 'a', '11'), ev('BOOKMARK', '', '15')])),
      () => new Response(streamOf([ev('MODIFIED', 'a', '16')])),
    ]);
    const seen: string[] = [];
    const gen = createApiClient({ apiBase: '/', fetch: f.fetch }).watch(configmaps, { namespace: 'ns', resourceVersion: '10', reconnectDelayMs: 0, onResourceVersion: (rv) => seen.push(rv) });
    expect(summary(await take(gen, 3))).toEqual(['ADDED:a@11', 'BOOKMARK:@15', 'MODIFIED:a@16']);
    expect(f.urls).toEqual([
      '/api/v1/namespaces/ns/configmaps?watch=1&resourceVersion=10&allowWatchBookmarks=true',
      '/api/v1/namespaces/ns/configmaps?watch=1&resourceVersion=15&allowWatchBookmarks=true',
    ]);
    expect(seen).toEqual(['11', '15', '16']);
  });

  it('lists first when no version is given, and relists after a 410 ERROR event', async () => {
    const expired = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', status: 'Failure', code: 410, reason: 'Expired', message: 'too old resource version: 5 (20)' } }) + '\n';
    const f = fakeFetch([
      () => Response.json({ items: [{ metadata: { name: 'a', resourceVersion: '3' } }], metadata: { resourceVersion: '5' } }),
      () => new Response(streamOf([expired])),
      () => Response.json({ items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }], metadata: { resourceVersion: '21' } }),
      () => new Response(streamOf([ev('DELETED', 'a', '22')])),
    ]);
    const gen = createApiClient({ apiBase: '/', fetch: f.fetch }).watch(configmaps, { labelSelector: 'x=y', reconnectDelayMs: 0 });
    expect(summary(await take(gen, 3))).toEqual(['RELIST@5:1', 'RELIST@21:2', 'DELETED:a@22']);
    expect(f.urls[0]).toBe('/api/v1/configmaps?limit=500&labelSelector=x%3Dy');
    expect(f.urls[1]).toBe('/api/v1/configmaps?watch=1&resourceVersion=5&allowWatchBookmarks=true&labelSelector=x%3Dy');
    expect(f.urls[3]).toContain('resourceVersion=21');
  });

  it('relists after an HTTP 410 too', async () => {
    const f = fakeFetch([
      () => Response.json({ kind: 'Status', code: 410, reason: 'Expired' }, { status: 410 }),
      () => Response.json({ items: [], metadata: { resourceVersion: '30' } }),
    ]);
    const gen = createApiClient({ apiBase: '/', fetch: f.fetch }).watch(configmaps, { resourceVersion: '1', reconnectDelayMs: 0 });
    expect(summary(await take(gen, 1))).toEqual(['RELIST@30:0']);
  });

  it('ends with the Status of other errors instead of swallowing them', async () => {
    const forbidden = JSON.stringify({ type: 'ERROR', object: { kind: 'Status', code: 500, reason: 'InternalError', message: 'boom' } }) + '\n';
    const f = fakeFetch([() => new Response(streamOf([ev('ADDED', 'a', '2'), forbidden]))]);
    const gen = createApiClient({ apiBase: '/', fetch: f.fetch }).watch(configmaps, { resourceVersion: '1' });
    const got: WatchItem[] = [];
    const err = await (async () => {
      for await (const item of gen) got.push(item);
    })().catch((e: unknown) => e);
    expect(summary(got)).toEqual(['ADDED:a@2']);
    expect(err).toBeInstanceOf(KubeApiError);
    expect((err as KubeApiError).toJSON()).toEqual({ code: 500, reason: 'InternalError', message: 'boom', causes: [] });

    const f2 = fakeFetch([() => Response.json({ kind: 'Status', code: 403, reason: 'Forbidden', message: 'no' }, { status: 403 })]);
    await expect(take(createApiClient({ apiBase: '/', fetch: f2.fetch }).watch(configmaps, { resourceVersion: '1' }), 1)).rejects.toMatchObject({ code: 403, reason: 'Forbidden' });
  });

  it('gives up on a server that keeps closing empty streams', async () => {
    let opened = 0;
    const gen = resumingWatch({
      resourceVersion: '1',
      reconnectDelayMs: 0,
      maxEmptyReconnects: 2,
      open: async () => (opened++, new Response(streamOf([]))),
      relist: async () => ({ items: [], resourceVersion: '1' }),
    });
    await expect(take(gen, 1)).rejects.toThrow('the server closed 3 watches in a row without sending anything');
    expect(opened).toBe(3);
  });

  it('stops quietly when aborted', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(new TextEncoder().encode(ev('ADDED', 'a', '2'))); } });
    const f = fakeFetch([() => new Response(body)]);
    const gen = createApiClient({ apiBase: '/', fetch: f.fetch }).watch(configmaps, { resourceVersion: '1', signal: controller.signal });
    const first = await gen.next();
    expect(first.value).toMatchObject({ type: 'ADDED' });
    const next = gen.next();
    controller.abort();
    expect(await next).toEqual({ done: true, value: undefined });
  });
});
