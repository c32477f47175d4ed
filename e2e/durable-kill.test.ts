// `--data-dir` survives kill -9: ten rounds of 16 concurrent writers (creates, updates, deletes of
// ConfigMaps) against the Node host, killed with SIGKILL at a random moment, then started again
// over the same directory. After each restart every acknowledged write is there exactly as
// answered, a write in flight at the kill is either wholly there or wholly absent, no object is
// torn, resourceVersions only grow, and a watch resumed from a resourceVersion read before the
// crash gets every later acknowledged write in order (or a 410).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWatch, request, startHost, type HostProcess } from './durable-host';

const ROUNDS = 10;
const WRITERS = 16;
const CM = '/api/v1/namespaces/default/configmaps';

/** What a name should hold: its data.seq and resourceVersion as last answered, or deleted. */
interface Known {
  seq: number;
  rv: string;
  deleted: boolean;
}

/** A write sent but not answered when the host died: either outcome is allowed. */
interface InFlight {
  name: string;
  /** The state if it landed. */
  landed: Known;
}

/** Seeded so a failure replays (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Body of the i-th write of a name: the padding makes a torn object visible (length and pattern). */
function configMap(name: string, seq: number, rv?: string): Record<string, unknown> {
  const pad = `${name}:${seq};`.repeat(40);
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(rv ? { resourceVersion: rv } : {}) }, data: { seq: String(seq), pad } };
}

describe('--data-dir survives kill -9', () => {
  let dir = '';
  let host: HostProcess | undefined;
  afterAll(async () => {
    await host?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write over ${ROUNDS} kills during ${WRITERS} concurrent writers`, async () => {
    dir = await mkdtemp(join(tmpdir(), 'kp-durable-'));
    const flags = ['--data-dir', dir];
    const rand = random(Number(process.env.FUZZ_SEED ?? 27));
    const known = new Map<string, Known>();
    let highestRv = 0;
    let killedInFlight = 0;
    host = await startHost(dir, flags);

    for (let round = 0; round < ROUNDS; round++) {
      const url = host.url;
      const inFlight: InFlight[] = [];
      // A resourceVersion read before the crash, for the resumed watch.
      const before = await request(`${url}${CM}?limit=1`, 'GET');
      expect(before.status).toBe(200);
      const resumeRv = before.body.metadata.resourceVersion as string;
      let dead = false;
      const ackedAfterResume: Array<{ name: string; rv: string; type: string }> = [];

      const writer = async (w: number) => {
        let next = 0;
        while (!dead) {
          const mine = [...known.entries()].filter(([n, k]) => n.startsWith(`w${w}-`) && !k.deleted);
          const pick = rand();
          let name: string;
          let landed: Known;
          let send: () => Promise<{ status: number; body: Record<string, any> }>;
          if (mine.length === 0 || pick < 0.5) {
            name = `w${w}-r${round}-${next++}`;
            landed = { seq: 0, rv: '', deleted: false };
            send = () => request(`${url}${CM}`, 'POST', configMap(name, 0));
          } else {
            const [n, k] = mine[Math.floor(rand() * mine.length)]!;
            name = n;
            if (pick < 0.85) {
              landed = { seq: k.seq + 1, rv: '', deleted: false };
              send = () => request(`${url}${CM}/${n}`, 'PUT', configMap(n, k.seq + 1, k.rv));
            } else {
              landed = { ...k, deleted: true };
              send = () => request(`${url}${CM}/${n}`, 'DELETE');
            }
          }
          const pending: InFlight = { name, landed };
          inFlight.push(pending);
          // Anything answered before this write was sent has a lower revision than it.
          const floor = highestRv;
          let answer;
          try {
            answer = await send();
          } catch {
            return; // the host died with this write in flight
          }
          if (answer.status >= 500 && dead) return;
          expect([200, 201], `${name}: ${JSON.stringify(answer.body)}`).toContain(answer.status);
          inFlight.splice(inFlight.indexOf(pending), 1);
          const rv = answer.body.metadata.resourceVersion as string;
          // A delete answers the object as it was; its event's revision is not in the answer.
          if (!landed.deleted) {
            expect(Number(rv)).toBeGreaterThan(floor);
            ackedAfterResume.push({ name, rv, type: landed.seq === 0 ? 'ADDED' : 'MODIFIED' });
            highestRv = Math.max(highestRv, Number(rv));
          } else {
            ackedAfterResume.push({ name, rv: '', type: 'DELETED' });
          }
          known.set(name, { ...landed, rv: landed.deleted ? landed.rv : rv });
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      // Killed at a random moment once more writes than writers were answered (waiting for them,
      // not a fixed time: a loaded machine's disk may take that long for a few fsyncs).
      for (let waited = 0; ackedAfterResume.length <= WRITERS && waited < 30_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
      await new Promise((r) => setTimeout(r, rand() * 700));
      dead = true;
      await host.kill();
      await Promise.all(writers);
      expect(ackedAfterResume.length, `round ${round}: writes acknowledged before the kill`).toBeGreaterThan(WRITERS);
      killedInFlight += inFlight.length;

      host = await startHost(dir, flags);
      const restarted = host.url;

      // Every name: as acknowledged, or (for the one write in flight) as that write would leave it.
      const list = await request(`${restarted}${CM}`, 'GET');
      expect(list.status).toBe(200);
      expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(highestRv);
      const stored = new Map<string, Record<string, any>>();
      for (const item of list.body.items as Array<Record<string, any>>) stored.set(item.metadata.name, item);
      for (const [name, k] of known) {
        const item = stored.get(name);
        const pending = inFlight.find((p) => p.name === name);
        const matches = (want: Known) =>
          want.deleted
            ? item === undefined
            : item !== undefined && item.data.seq === String(want.seq) && (want.rv === '' || item.metadata.resourceVersion === want.rv);
        expect(matches(k) || (pending !== undefined && matches(pending.landed)), `round ${round}: ${name} is ${JSON.stringify(item?.data?.seq)}@${item?.metadata?.resourceVersion}, acknowledged ${JSON.stringify(k)}`).toBe(true);
        if (item) {
          // Whole: the padding is exactly what its seq wrote.
          expect(item.data.pad).toBe(`${name}:${item.data.seq};`.repeat(40));
          known.set(name, { seq: Number(item.data.seq), rv: item.metadata.resourceVersion, deleted: false });
        } else {
          known.set(name, { ...k, deleted: true });
        }
      }
      for (const pending of inFlight) {
        const item = stored.get(pending.name);
        if (!known.has(pending.name) && item) known.set(pending.name, { seq: 0, rv: item.metadata.resourceVersion, deleted: false });
        if (item) highestRv = Math.max(highestRv, Number(item.metadata.resourceVersion));
      }

      // Revisions continue above everything answered before the crash.
      const sentinel = await request(`${restarted}${CM}`, 'POST', configMap(`sentinel-${round}`, 0));
      expect(sentinel.status).toBe(201);
      const sentinelRv = Number(sentinel.body.metadata.resourceVersion);
      expect(sentinelRv).toBeGreaterThan(highestRv);
      highestRv = sentinelRv;

      // The watch resumed from before the crash sees every acknowledged write after that point, in order.
      const watched = await readWatch(`${restarted}${CM}?watch=1&resourceVersion=${resumeRv}`, (ev) => ev.object.metadata?.name === `sentinel-${round}`);
      const expired = watched.status === 410 || watched.events.some((ev) => ev.type === 'ERROR' && ev.object.code === 410);
      if (!expired) {
        const rvs = watched.events.map((ev) => Number(ev.object.metadata.resourceVersion));
        expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
        expect(watched.events.at(-1)?.object.metadata.name).toBe(`sentinel-${round}`);
        const seen = new Set(watched.events.map((ev) => `${ev.type} ${ev.object.metadata.name} ${ev.type === 'DELETED' ? '' : ev.object.metadata.resourceVersion}`));
        for (const ack of ackedAfterResume) expect(seen, `round ${round}`).toContain(`${ack.type} ${ack.name} ${ack.rv}`);
      }
    }
    // The kills landed while writes were in flight (the point of the test).
    expect(killedInFlight).toBeGreaterThan(ROUNDS);
    await host.stop();
  }, 240_000);
});
