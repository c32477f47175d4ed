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
  /** The fastest round of each (the medians above are what the target is judged on). */
  best: { walkMs: number; joinMs: number; transportMs: number };
  rounds: number;
}

const PATH = '/api/v1/namespaces/default/configmaps';
const enc = new TextEncoder();

const WARMUP_ROUNDS = 10;
const ROUNDS = 21;

async function time(op: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await op();
  return performance.now() - t0;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
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
    // The namespace also holds the kube-root-ca.crt ConfigMap every namespace gets (decision 0016).
    const count = itemTexts.reduce((n, p) => n + p.filter((t) => t.includes('"name":"cm-')).length, 0);
    if (count !== objects) throw new Error(`walk returned ${count} of the filled items, want ${objects}`);

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
    // The transport alone: the floor server (same process as the API) answering fixed bytes of
    // the average page size, as many times as there are pages.
    await server.setFloorBody(Math.round(bytes / itemTexts.length));
    const transport = async () => {
      for (let p = 0; p < itemTexts.length; p++) await hit(agent, server.floorUrl, 'GET', PATH, undefined, 2000);
    };
    // Warm every path first (JIT, the socket's buffers, the item bytes), then measure the three in
    // alternating rounds so a change in machine load lands on all of them; medians are compared.
    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await walk();
      join();
      await transport();
    }
    const walks: number[] = [];
    const joins: number[] = [];
    const transports: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      walks.push(await time(walk));
      joins.push(await time(join));
      transports.push(await time(transport));
    }
    const walkMs = median(walks);
    const joinMs = median(joins);
    const transportMs = median(transports);
    const best = { walkMs: Math.min(...walks), joinMs: Math.min(...joins), transportMs: Math.min(...transports) };
    return { objects, limit, pages: itemTexts.length, bytes, walkMs, joinMs, transportMs, best, rounds: ROUNDS };
  } finally {
    agent.destroy();
    await server.close();
  }
}

export function formatListWalk(r: ListWalkResult): string {
  return [
    `list walk: ${r.objects} ConfigMaps, limit=${r.limit}, ${r.pages} pages, ${(r.bytes / 1e6).toFixed(2)} MB; medians of ${r.rounds} alternating rounds (fastest in brackets)`,
    `  Node host walk (HTTP): ${r.walkMs.toFixed(1)} ms [${r.best.walkMs.toFixed(1)}] (target <= 500 ms)`,
    `  join stored JSON:      ${r.joinMs.toFixed(1)} ms [${r.best.joinMs.toFixed(1)}]`,
    `  ratio: ${(r.walkMs / r.joinMs).toFixed(2)}x [${(r.best.walkMs / r.best.joinMs).toFixed(2)}x] (target <= 1.5x)`,
    `  transport alone (${r.pages} fixed pages of the same size over HTTP): ${r.transportMs.toFixed(1)} ms [${r.best.transportMs.toFixed(1)}] = ${(r.transportMs / r.joinMs).toFixed(2)}x the join`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runListWalkBench().then((r) => console.log(formatListWalk(r)));
}
