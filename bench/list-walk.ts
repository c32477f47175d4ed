// Walk 10,000 ConfigMaps with limit=500 through the Node host (HTTP, keep-alive) against the
// floor: building the same page bytes by joining the stored JSON strings directly, no HTTP.
// Targets: walk <= 1.5x the join and <= 0.5 s absolute. Prints numbers; asserts nothing.
import { createApiServer } from '../src/core/api';
import { startNodeHost } from '../src/hosts/node/server';
import { hit, makeAgent } from './http-client';

export interface ListWalkResult {
  objects: number;
  limit: number;
  pages: number;
  bytes: number;
  walkMs: number;
  joinMs: number;
}

const PATH = '/api/v1/namespaces/default/configmaps';
const enc = new TextEncoder();

function configMap(i: number): string {
  return JSON.stringify({ metadata: { name: `cm-${String(i).padStart(5, '0')}`, labels: { app: 'bench', shard: String(i % 16) } }, data: { 'settings.json': '{"mode":"bench","retries":3}', index: String(i) } });
}

async function best(runs: number, op: () => Promise<unknown> | unknown): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await op();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export async function runListWalkBench(objects = 10_000, limit = 500): Promise<ListWalkResult> {
  const api = await createApiServer();
  const host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
  const agent = makeAgent(1);
  try {
    for (let i = 0; i < objects; i += 200) {
      const batch: Promise<unknown>[] = [];
      for (let j = i; j < Math.min(objects, i + 200); j++) {
        batch.push(api.handle({ method: 'POST', url: PATH, headers: { 'content-type': 'application/json' }, body: enc.encode(configMap(j)) }));
      }
      await Promise.all(batch);
    }

    // One walk to learn the pages' metadata and the stored item texts (items re-serialised keep key order).
    const pagesMeta: string[] = [];
    const itemTexts: string[][] = [];
    let cont = '';
    let bytes = 0;
    for (;;) {
      const r = await hit(agent, host.url, 'GET', `${PATH}?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`, undefined, true);
      if (r.status !== 200) throw new Error(`list: HTTP ${r.status} ${r.body.slice(0, 200)}`);
      bytes += r.bytes;
      const page = JSON.parse(r.body);
      pagesMeta.push(JSON.stringify(page.metadata));
      itemTexts.push((page.items as unknown[]).map((o) => JSON.stringify(o)));
      cont = page.metadata.continue ?? '';
      if (!cont) break;
    }
    const count = itemTexts.reduce((n, p) => n + p.length, 0);
    if (count !== objects) throw new Error(`walk returned ${count} items, want ${objects}`);

    // The client reads every byte of every page but decodes only the head it needs (the list
    // metadata with the continue token comes before the items): the walk measures the server and
    // the transport, not the client's JSON decoding, which the join floor does not do either.
    const walk = async () => {
      let c = '';
      for (;;) {
        const r = await hit(agent, host.url, 'GET', `${PATH}?limit=${limit}${c ? `&continue=${encodeURIComponent(c)}` : ''}`, undefined, 2000);
        const m = /"continue":"([^"]*)"/.exec(r.body);
        c = m ? m[1] : '';
        if (!c) return;
      }
    };
    const join = () => {
      let total = 0;
      for (let p = 0; p < itemTexts.length; p++) {
        const body = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":${pagesMeta[p]},"items":[${itemTexts[p].join(',')}]}`;
        total += enc.encode(body).length;
      }
      return total;
    };
    await walk();
    join();
    const walkMs = await best(5, walk);
    const joinMs = await best(5, join);
    return { objects, limit, pages: itemTexts.length, bytes, walkMs, joinMs };
  } finally {
    agent.destroy();
    await host.close();
    await api.close();
  }
}

export function formatListWalk(r: ListWalkResult): string {
  return [
    `list walk: ${r.objects} ConfigMaps, limit=${r.limit}, ${r.pages} pages, ${(r.bytes / 1e6).toFixed(2)} MB`,
    `  Node host walk (HTTP): ${r.walkMs.toFixed(1)} ms (target <= 500 ms)`,
    `  join stored JSON:      ${r.joinMs.toFixed(1)} ms`,
    `  ratio: ${(r.walkMs / r.joinMs).toFixed(2)}x (target <= 1.5x)`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runListWalkBench().then((r) => console.log(formatListWalk(r)));
}
