// A minimal keep-alive HTTP client for the benchmarks (node:http Agent; no fetch/undici so the
// client's own overhead stays small and identical for the floor and the host).
import { Agent, request } from 'node:http';

export interface Hit {
  status: number;
  bytes: number;
  body: string;
}

export function makeAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets });
}

/**
 * One request. `keepBody`: true keeps the whole body as text; a number keeps only that many
 * leading bytes (all bytes are still read and counted), for clients that need just the head.
 */
export function hit(agent: Agent, base: string, method: string, path: string, body?: string, keepBody: boolean | number = false, contentType = 'application/json'): Promise<Hit> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = request(base + path, { method, agent, headers }, (res) => {
      let bytes = 0;
      const chunks: Buffer[] = [];
      const head = typeof keepBody === 'number' ? keepBody : Infinity;
      res.on('data', (c: Buffer) => {
        if (keepBody !== false && bytes < head) chunks.push(bytes + c.length <= head ? c : c.subarray(0, head - bytes));
        bytes += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, body: keepBody !== false ? Buffer.concat(chunks).toString() : '' }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The value at quantile q (0..1) of the samples (sorted in place). */
export function quantile(samples: number[], q: number): number {
  if (samples.length === 0) return NaN;
  samples.sort((a, b) => a - b);
  return samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
}

/** Runs `op` n times one after another; returns per-call latencies in ms. */
export async function sequential(n: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await op(i);
    out.push(performance.now() - t0);
  }
  return out;
}

/** Runs `op` n times with `inFlight` concurrent workers; returns operations per second. */
export async function concurrent(n: number, inFlight: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) await op(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return n / ((performance.now() - t0) / 1000);
}
