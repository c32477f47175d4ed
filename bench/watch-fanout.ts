// Watch fan-out: W watchers on one collection, N updates. Each watcher must get every event in
// revision order; the number is the added cost per watcher per event (target <= 20 µs: encode
// once per event, not per watcher). In-process (the core's watch path with host-like sinks), so
// socket writes are not counted. Prints numbers; asserts nothing.
import { createApiServer, type ApiServer } from '../src/core/api';
import type { StreamSink } from '../src/core/meta/types';
import { isStream } from '../src/core/meta/types';
import { bodyText } from '../src/core/codec/json';

export interface FanoutResult {
  watchers: number;
  updates: number;
  baseMs: number;
  fanMs: number;
  perWatcherEventUs: number;
  allInOrder: boolean;
}

const PATH = '/api/v1/namespaces/default/configmaps';
const enc = new TextEncoder();

function req(method: string, url: string, body?: unknown, contentType = 'application/json') {
  return { method, url, headers: { 'content-type': contentType, accept: 'application/json' }, body: body === undefined ? undefined : enc.encode(JSON.stringify(body)) };
}

/** A host-like sink: keeps the chunks (as a socket buffer would) and resolves when `want` arrived. */
function collector(want: number): { sink: StreamSink; chunks: string[]; done: Promise<void> } {
  const chunks: string[] = [];
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const sink: StreamSink = {
    write(chunk) {
      chunks.push(chunk as string);
      if (chunks.length === want) resolve();
      return true;
    },
    end() {},
  };
  return { sink, chunks, done };
}

async function run(api: ApiServer, watchers: number, updates: number): Promise<{ ms: number; inOrder: boolean }> {
  const list = await api.handle(req('GET', PATH));
  const rv = JSON.parse(bodyText(list.body as string | Uint8Array)).metadata.resourceVersion as string;
  const cols = [];
  for (let w = 0; w < watchers; w++) {
    const res = await api.handle(req('GET', `${PATH}?watch=1&resourceVersion=${rv}`));
    if (!isStream(res.body)) throw new Error('watch did not answer a stream');
    const c = collector(updates);
    res.body.start(c.sink);
    cols.push({ ...c, stream: res.body });
  }
  const t0 = performance.now();
  for (let i = 0; i < updates; i += 50) {
    const batch: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(updates, i + 50); j++) batch.push(api.handle(req('PATCH', `${PATH}/target`, { data: { i: String(j) } }, 'application/merge-patch+json')));
    await Promise.all(batch);
  }
  await Promise.all(cols.map((c) => c.done));
  const ms = performance.now() - t0;
  let inOrder = true;
  for (const c of cols) {
    let prev = Number(rv);
    for (const chunk of c.chunks) {
      const m = /"resourceVersion":"(\d+)"/.exec(chunk);
      const r = m ? Number(m[1]) : NaN;
      if (!(r === prev + 1) || !chunk.startsWith('{"type":"MODIFIED"')) inOrder = false;
      prev = r;
    }
    if (c.chunks.length !== updates) inOrder = false;
    c.stream.cancel();
  }
  return { ms, inOrder };
}

export async function runFanoutBench(watchers = 100, updates = 1000): Promise<FanoutResult> {
  const api = await createApiServer();
  try {
    await api.handle(req('POST', PATH, { metadata: { name: 'target' }, data: { i: '-1' } }));
    // Warm-up, then the baseline (one watcher: the write path plus one delivery) and the fan-out.
    await run(api, 1, updates);
    let base = Infinity;
    let fan = Infinity;
    let allInOrder = true;
    for (let k = 0; k < 3; k++) {
      const b = await run(api, 1, updates);
      const f = await run(api, watchers, updates);
      base = Math.min(base, b.ms);
      fan = Math.min(fan, f.ms);
      allInOrder &&= b.inOrder && f.inOrder;
    }
    return { watchers, updates, baseMs: base, fanMs: fan, perWatcherEventUs: ((fan - base) * 1000) / ((watchers - 1) * updates), allInOrder };
  } finally {
    await api.close();
  }
}

export function formatFanout(r: FanoutResult): string {
  return [
    `watch fan-out: ${r.watchers} watchers x ${r.updates} updates (in-process)`,
    `  1 watcher: ${r.baseMs.toFixed(1)} ms, ${r.watchers} watchers: ${r.fanMs.toFixed(1)} ms`,
    `  added cost per watcher per event: ${r.perWatcherEventUs.toFixed(2)} µs (target <= 20 µs)`,
    `  every watcher got every event in order: ${r.allInOrder ? 'yes' : 'NO'}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runFanoutBench().then((r) => console.log(formatFanout(r)));
}
