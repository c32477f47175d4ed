// Watches and chunked lists through the real kubectl and helm against the Node host:
// `get -w --output-watch-events`, `get pods -w` (Table form), `--chunk-size`, `delete` and
// `wait --for=delete` returning promptly, and `helm install --wait`.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCluster, type Cluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** An HTTP call from "another client" than kubectl. */
async function http(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: any }> {
  const res = await fetch(c.url + path, { method, headers: { 'content-type': contentType, accept: 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

interface Background {
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  /** Stops the process (SIGTERM) and resolves with its exit. */
  stop(): Promise<number | null>;
  exited: Promise<number | null>;
}

/** kubectl in the background, with the cluster's kubeconfig and a private HOME. */
function kubectlBackground(args: string[]): Background {
  const child = spawn(join(REPO_ROOT, '.tools', 'bin', 'kubectl'), ['--cache-dir', join(c.dir, 'kube-cache'), ...args], {
    env: { PATH: process.env.PATH, HOME: c.dir, KUBECONFIG: c.kubeconfig },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const l of [...listeners]) l();
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(re, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${re} in kubectl output:\n${out}\nstderr:\n${err}`));
        }, timeoutMs);
        const check = () => {
          if (re.test(out)) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

describe('kubectl get -w', () => {
  it('--output-watch-events sees ADDED/MODIFIED/DELETED for changes made by another client', async () => {
    expect((await http('POST', '/api/v1/namespaces', { metadata: { name: 'watch-cm' } })).status).toBe(201);
    const ns = '/api/v1/namespaces/watch-cm/configmaps';
    expect((await http('POST', ns, { metadata: { name: 'before' }, data: { a: '1' } })).status).toBe(201);
    const w = kubectlBackground(['get', 'cm', '-n', 'watch-cm', '-w', '--output-watch-events']);
    try {
      await w.waitFor(/^ADDED\s+before\s+1\s+/m);
      expect((await http('POST', ns, { metadata: { name: 'w1' }, data: { a: '1' } })).status).toBe(201);
      await w.waitFor(/^ADDED\s+w1\s+1\s+/m);
      expect((await http('PATCH', `${ns}/w1`, { data: { a: '1', b: '2' } }, 'application/merge-patch+json')).status).toBe(200);
      await w.waitFor(/^MODIFIED\s+w1\s+2\s+/m);
      expect((await http('DELETE', `${ns}/w1`)).status).toBe(200);
      await w.waitFor(/^DELETED\s+w1\s+2\s+/m);
    } finally {
      await w.stop();
    }
    const lines = w.stdout().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^EVENT\s+NAME\s+DATA\s+AGE$/);
    // The namespace's kube-root-ca.crt (root-ca-cert-publisher) is part of the initial list.
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['ADDED before', 'ADDED kube-root-ca.crt', 'ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    expect(w.stderr()).toBe('');
  });

  it('get pods -w prints Table rows: one header, then a row per change', async () => {
    expect((await http('POST', '/api/v1/namespaces', { metadata: { name: 'watch-pods' } })).status).toBe(201);
    const pods = '/api/v1/namespaces/watch-pods/pods';
    // A scheduler nobody runs keeps the pods Pending: the only changes are the test's own.
    const spec = { schedulerName: 'manual', containers: [{ name: 'c', image: 'nginx' }] };
    expect((await http('POST', pods, { metadata: { name: 'p1' }, spec })).status).toBe(201);
    const w = kubectlBackground(['get', 'pods', '-n', 'watch-pods', '-w']);
    try {
      await w.waitFor(/^p1\s+0\/1\s+Pending\s+0\s+/m);
      expect((await http('POST', pods, { metadata: { name: 'p2' }, spec })).status).toBe(201);
      await w.waitFor(/^p2\s+0\/1\s+Pending\s+0\s+/m);
      expect((await http('PATCH', `${pods}/p2`, { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json')).status).toBe(200);
      await w.waitFor(/^p2[^\n]*\n[^]*^p2\s+/m);
    } finally {
      await w.stop();
    }
    const out = w.stdout();
    expect(out.match(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/gm)).toHaveLength(1);
    expect(out.trimEnd().split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['p1', 'p2', 'p2']);
  });
});

describe('kubectl get --chunk-size', () => {
  it('prints all 100 ConfigMaps when paging by 7', async () => {
    expect((await http('POST', '/api/v1/namespaces', { metadata: { name: 'chunks' } })).status).toBe(201);
    const names = Array.from({ length: 100 }, (_, i) => `cm-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < names.length; i += 20) {
      const rs = await Promise.all(names.slice(i, i + 20).map((name) => http('POST', '/api/v1/namespaces/chunks/configmaps', { metadata: { name }, data: { k: 'v' } })));
      for (const r of rs) expect(r.status).toBe(201);
    }
    // The namespace's kube-root-ca.crt sorts last: 101 in all, the last page holds 3.
    const all = [...names, 'kube-root-ca.crt'];
    const byName = await c.kubectl(['get', 'cm', '-n', 'chunks', '--chunk-size=7', '-o', 'name']);
    expect(byName.code, byName.stderr).toBe(0);
    expect(byName.stdout).toBe(all.map((n) => `configmap/${n}\n`).join(''));
    const table = await c.kubectl(['get', 'cm', '-n', 'chunks', '--chunk-size=7']);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+DATA\s+AGE$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(all);
  });
});

describe('kubectl delete and wait --for=delete', () => {
  it('delete returns as soon as the object is gone', async () => {
    expect((await http('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'del-me' } })).status).toBe(201);
    const t0 = Date.now();
    const r = await c.kubectl(['delete', 'cm', 'del-me']);
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(0);
    // kubectl 1.34 wording.
    expect(r.stdout).toBe('configmap "del-me" deleted from default namespace\n');
    expect(took).toBeLessThan(5000);
  });

  it('wait --for=delete returns promptly once another client deletes the object', async () => {
    expect((await http('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'wait-me' } })).status).toBe(201);
    const w = kubectlBackground(['wait', '--for=delete', 'cm/wait-me', '--timeout=60s']);
    // Let kubectl list and start its watch.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await http('DELETE', '/api/v1/namespaces/default/configmaps/wait-me')).status).toBe(200);
    const t0 = Date.now();
    const code = await Promise.race([w.exited, new Promise<'slow'>((resolve) => setTimeout(() => resolve('slow'), 10_000))]);
    if (code === 'slow') await w.stop();
    expect(code, w.stderr()).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(w.stdout()).toBe('configmap/wait-me condition met\n');
  });
});

describe('helm install --wait', () => {
  it('installs a chart with a ConfigMap and returns once it is ready', async () => {
    const r = await c.helm(['install', 'hw', c.fixture('chart-cm'), '--wait', '--timeout', '30s'], { timeoutMs: 60_000 });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/STATUS: deployed/);
    const cm = await http('GET', '/api/v1/namespaces/default/configmaps/hw-settings');
    expect(cm.status).toBe(200);
    expect(cm.json.data).toEqual({ greeting: 'hello' });
  });
});
