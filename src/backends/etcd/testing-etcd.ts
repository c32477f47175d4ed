// Test helper: etcd members from Debian's etcd-server (`etcd` on PATH) on free loopback ports,
// each in its own temp dir, removed on stop. A missing binary fails with one clear line.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdMember {
  name: string;
  clientUrl: string;
  /** The running process's id (undefined while stopped): benches read its CPU time. */
  readonly pid: number | undefined;
  /** SIGKILL (data kept); start() again brings it back with the same data. */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops the member and removes its data. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export function requireEtcd(): void {
  const r = spawnSync('etcd', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error('etcd is not on PATH: install Debian\'s etcd-server (apt-get install -y etcd-server) to run the etcd tests');
}

async function healthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`etcd exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok && ((await res.json()) as { health?: string }).health === 'true') return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd at ${url} did not become healthy within ${timeoutMs} ms`);
}

/** Starts a cluster of `size` members (1 or 3) and waits until every member is healthy. */
export async function startEtcdCluster(size = 1): Promise<{ members: EtcdMember[]; servers: string[]; stop(): Promise<void> }> {
  requireEtcd();
  const dir = mkdtempSync(join(tmpdir(), 'kp-etcd-'));
  const specs = [];
  for (let i = 0; i < size; i++) specs.push({ name: `m${i}`, client: `http://127.0.0.1:${await freePort()}`, peer: `http://127.0.0.1:${await freePort()}` });
  const initialCluster = specs.map((s) => `${s.name}=${s.peer}`).join(',');
  const members: EtcdMember[] = specs.map((spec) => {
    let child: ChildProcess | undefined;
    let log = '';
    const launch = () => {
      child = spawn('etcd', [
        '--name', spec.name, '--data-dir', join(dir, spec.name),
        '--listen-client-urls', spec.client, '--advertise-client-urls', spec.client,
        '--listen-peer-urls', spec.peer, '--initial-advertise-peer-urls', spec.peer,
        '--initial-cluster', initialCluster, '--initial-cluster-state', 'new', '--initial-cluster-token', 'kp-test',
        '--experimental-watch-progress-notify-interval', '1s', '--log-level', 'error',
      ], { stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr!.setEncoding('utf8').on('data', (c: string) => (log = (log + c).slice(-2000)));
      return child;
    };
    const exit = async (signal: NodeJS.Signals) => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill(signal);
      await exited;
    };
    return {
      name: spec.name,
      clientUrl: spec.client,
      get pid() {
        return child?.exitCode === null && child.signalCode === null ? child.pid : undefined;
      },
      kill: () => exit('SIGKILL'),
      async start() {
        const c = launch();
        await healthy(spec.client, c, 20_000).catch((e: Error) => {
          throw new Error(`${e.message}\n${log}`);
        });
      },
      stop: () => exit('SIGTERM'),
    };
  });
  // Members of a new cluster wait for each other: launch all, then wait.
  await Promise.all(members.map((m) => m.start()));
  return {
    members,
    servers: specs.map((s) => s.client),
    async stop() {
      await Promise.all(members.map((m) => m.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
