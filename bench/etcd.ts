// etcd as a reference point for write throughput: if an `etcd` binary is on PATH (Debian
// package etcd-server), start it on loopback with a throwaway data dir and measure puts/s from a
// single etcd3 client. Installs nothing; reports "skipped" when etcd is absent.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { concurrent, sequential } from './http-client';

export type EtcdResult = { available: false; reason: string } | { available: true; version: string; putsPerSecSequential: number; putsPerSec16: number };

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

function etcdVersion(): string | undefined {
  const r = spawnSync('etcd', ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) return undefined;
  return /etcd Version: (\S+)/.exec(r.stdout)?.[1] ?? 'unknown';
}

async function waitHealthy(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 20_000;
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
  throw new Error('etcd did not become healthy within 20 s');
}

export async function runEtcdBench(opts: { puts?: number } = {}): Promise<EtcdResult> {
  const version = etcdVersion();
  if (!version) return { available: false, reason: 'no etcd on PATH (Debian: apt-get install etcd-server)' };
  const puts = opts.puts ?? 3000;
  const dir = await mkdtemp(join(tmpdir(), 'bench-etcd-'));
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const child = spawn(
    'etcd',
    ['--name', 'bench', '--data-dir', join(dir, 'data'), '--listen-client-urls', clientUrl, '--advertise-client-urls', clientUrl, '--listen-peer-urls', peerUrl, '--initial-advertise-peer-urls', peerUrl, '--initial-cluster', `bench=${peerUrl}`, '--log-level', 'error'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
  const { Etcd3 } = await import('etcd3');
  const client = new Etcd3({ hosts: clientUrl });
  try {
    await waitHealthy(clientUrl, child);
    const value = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"},"data":{"greeting":"hello"}}';
    await sequential(200, (i) => client.put(`/registry/configmaps/default/warm-${i}`).value(value).exec());
    const seq = await sequential(puts, (i) => client.put(`/registry/configmaps/default/seq-${i}`).value(value).exec());
    const putsPerSecSequential = puts / (seq.reduce((a, b) => a + b, 0) / 1000);
    const putsPerSec16 = await concurrent(puts, 16, (i) => client.put(`/registry/configmaps/default/burst-${i}`).value(value).exec());
    return { available: true, version, putsPerSecSequential, putsPerSec16 };
  } catch (err) {
    throw new Error(`${(err as Error).message}\netcd stderr: ${stderr}`);
  } finally {
    client.close();
    const exited = new Promise((r) => child.once('exit', r));
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
}
