// Walk 10,000 ConfigMaps with limit=500 through the Node host (HTTP, keep-alive) against the
// floor: building the same page bytes by joining the stored JSON strings directly, no HTTP.
// Targets: walk <= 1.5x the join and <= 0.5 s absolute. Prints numbers; asserts nothing.
// The server runs in its own process (./server-process.ts), as it does for kubectl or an
// informer: the client reading one page and the server writing it then use both cores.
import { hit, makeAgent } from './http-client';
import { startRemoteServer } from './remote-server';

export interface ListWalkResult {
  objects: number;
  limit: number;
  pages: number;
  bytes: number;
  walkMs: number;
  joinMs: number;
  /** The same number of pages of the same size as fixed bytes over the same kind of connection. */
  transportMs: number;
}

const PATH = '/api/v1/namespaces/default/configmaps';
const enc = new TextEncoder();

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
  const server = await startRemoteServer();
  const host = { url: server.apiUrl };
  const agent = makeAgent(1);
  try {
    await server.fillWalk(objects, PATH);

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
    // The transport alone: the floor server (same process as the API) answering fixed bytes of
    // the average page size, as many times as there are pages.
    await server.setFloorBody(Math.round(bytes / itemTexts.length));
    const transport = async () => {
      for (let p = 0; p < itemTexts.length; p++) await hit(agent, server.floorUrl, 'GET', PATH, undefined, 2000);
    };
    await transport();
    const walkMs = await best(5, walk);
    const joinMs = await best(5, join);
    const transportMs = await best(5, transport);
    return { objects, limit, pages: itemTexts.length, bytes, walkMs, joinMs, transportMs };
  } finally {
    agent.destroy();
    await server.close();
  }
}

export function formatListWalk(r: ListWalkResult): string {
  return [
    `list walk: ${r.objects} ConfigMaps, limit=${r.limit}, ${r.pages} pages, ${(r.bytes / 1e6).toFixed(2)} MB`,
    `  Node host walk (HTTP): ${r.walkMs.toFixed(1)} ms (target <= 500 ms)`,
    `  join stored JSON:      ${r.joinMs.toFixed(1)} ms`,
    `  ratio: ${(r.walkMs / r.joinMs).toFixed(2)}x (target <= 1.5x)`,
    `  transport alone (${r.pages} fixed pages of the same size over HTTP): ${r.transportMs.toFixed(1)} ms = ${(r.transportMs / r.joinMs).toFixed(2)}x the join`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runListWalkBench().then((r) => console.log(formatListWalk(r)));
}
