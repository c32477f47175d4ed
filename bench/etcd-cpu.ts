// CPU per create on etcd, host against the relay floor (decision 0047): the Node host of one or
// more checkouts (`--roots a,b`, an A/B of old and new code) and the relay server, each in its
// own process on one 1-member etcd, driven with 16 creates in flight in interleaved rounds. Each
// process's CPU comes from /proc/<pid>/stat around its round, so other jobs on the shared machine
// move the rate but hardly the CPU per create. Each host writes under its own --etcd-prefix, so
// no host decodes another's writes.
// `--memory` adds the first checkout's host on its in-memory store (the API's work alone);
// `--prof DIR` writes the hosts' and relays' V8 CPU profiles there.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEtcdCluster } from '../src/backends/etcd/testing-etcd';
import { startHostProcess } from './durable';
import { concurrent, hit, makeAgent } from './http-client';
import { startRelayServer } from './relay-server';

const NS_PATH = '/api/v1/namespaces/default/configmaps';
const TICK_US = 1e6 / 100; // USER_HZ on Linux

function configMap(name: string): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'bench' } }, data: { 'settings.json': '{"mode":"bench","retries":3}', greeting: 'hello' } });
}

/** utime + stime of a process (or of one thread: `/proc/<pid>/task/<tid>`), in µs. */
async function cpuOf(pid: number, tid?: number): Promise<number> {
  const stat = await readFile(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

function startHost(root: string, dir: string, flags: string[], prof?: string): ReturnType<typeof startHostProcess> {
  return startHostProcess(dir, flags, { root, nodeArgs: prof ? ['--cpu-prof', '--cpu-prof-dir', prof] : [] });
}

interface Target {
  name: string;
  url: string;
  pid: number;
  cpuUs: number[];
  /** The main thread's share (the JavaScript of the API, or of the relay). */
  mainUs: number[];
  /** etcd's CPU and this bench process's (the clients) over the same round. */
  etcdUs: number[];
  benchUs: number[];
  rates: number[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const roots = (arg('roots') ?? here).split(',').map((r) => resolve(r));
  const rounds = Number(arg('rounds') ?? 8);
  const per = Number(arg('per') ?? 500);
  const prof = arg('prof');
  const cluster = await startEtcdCluster(1);
  const etcdPid = cluster.members[0]!.pid!;
  const dir = await mkdtemp(join(tmpdir(), 'bench-etcd-cpu-'));
  const agent = makeAgent(16);
  const hosts: Array<Awaited<ReturnType<typeof startHost>>> = [];
  let relay: Awaited<ReturnType<typeof startRelayServer>> | undefined;
  try {
    const targets: Target[] = [];
    for (const [i, root] of roots.entries()) {
      const host = await startHost(root, dir, ['--etcd-servers', cluster.servers.join(','), '--etcd-prefix', `/h${i}`], prof);
      hosts.push(host);
      targets.push({ name: `host ${i} (${root})`, url: host.url, pid: host.pid, cpuUs: [], mainUs: [], etcdUs: [], benchUs: [], rates: [] });
    }
    if (process.argv.includes('--memory')) {
      // The first checkout's host on its in-memory store: the API's own work, without etcd.
      const host = await startHost(roots[0]!, dir, [], prof);
      hosts.push(host);
      targets.push({ name: `in-memory host (${roots[0]})`, url: host.url, pid: host.pid, cpuUs: [], mainUs: [], etcdUs: [], benchUs: [], rates: [] });
    }
    const created = await hit(agent, hosts[0]!.url, 'POST', NS_PATH, configMap('bench-size'), true);
    relay = await startRelayServer({ kind: 'etcd', servers: cluster.servers, getKey: '/h0/core/configmaps/default/bench-size', putPrefix: '/relay/', stored: created.body }, prof);
    await relay.setAnswers(created.bytes, 0);
    targets.push({ name: 'relay (etcd3 client)', url: relay.url, pid: relay.pid, cpuUs: [], mainUs: [], etcdUs: [], benchUs: [], rates: [] });
    // The same warm-up for every side, enough for the host's JIT to settle (decision 0055).
    for (const t of targets) await concurrent(5000, 16, (i) => hit(agent, t.url, 'POST', NS_PATH, configMap(`warm-${i}`)));
    for (let k = 0; k < rounds; k++) {
      // Rotate the order so no target always follows the same one.
      for (let j = 0; j < targets.length; j++) {
        const t = targets[(j + k) % targets.length]!;
        const [before, mainBefore, etcdBefore, benchBefore] = [await cpuOf(t.pid), await cpuOf(t.pid, t.pid), await cpuOf(etcdPid), process.cpuUsage()];
        const rate = await concurrent(per, 16, (i) => hit(agent, t.url, 'POST', NS_PATH, configMap(`r${k}-${i}`)));
        t.cpuUs.push(((await cpuOf(t.pid)) - before) / per);
        t.mainUs.push(((await cpuOf(t.pid, t.pid)) - mainBefore) / per);
        t.etcdUs.push(((await cpuOf(etcdPid)) - etcdBefore) / per);
        const bench = process.cpuUsage(benchBefore);
        t.benchUs.push((bench.user + bench.system) / per);
        t.rates.push(rate);
      }
    }
    console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds of ${per} creates, 16 in flight`);
    for (const t of targets) {
      console.log(
        `${t.name}: CPU/create median ${median(t.cpuUs).toFixed(0)} µs (min ${Math.min(...t.cpuUs).toFixed(0)}; main thread ${median(t.mainUs).toFixed(0)}; etcd ${median(t.etcdUs).toFixed(0)}, clients ${median(t.benchUs).toFixed(0)}), creates/s median ${median(t.rates).toFixed(0)}`,
      );
    }
  } finally {
    agent.destroy();
    await relay?.close();
    for (const h of hosts) await h.stop();
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
