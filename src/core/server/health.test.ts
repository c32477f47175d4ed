// /healthz, /livez, /readyz through the whole core: bodies and line format as kube-apiserver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const TEXT = 'text/plain; charset=utf-8';

describe('health endpoints', () => {
  it.each(['/healthz', '/livez', '/readyz'])('%s answers ok', async (path) => {
    const r = await c.get(path);
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe(TEXT);
    expect(r.headers['X-Content-Type-Options']).toBe('nosniff');
    expect(r.text).toBe('ok');
  });

  it('?verbose lists every check and ends with "<endpoint> check passed"', async () => {
    const r = await c.get('/readyz?verbose');
    expect(r.status).toBe(200);
    const lines = r.text.split('\n');
    expect(lines.slice(0, 3)).toEqual(['[+]ping ok', '[+]log ok', '[+]etcd ok']);
    expect(lines).toContain('[+]shutdown ok');
    expect(lines.some((l) => l.startsWith('[+]poststarthook/'))).toBe(true);
    expect(r.text.endsWith('\nreadyz check passed\n')).toBe(true);
    const live = await c.get('/livez?verbose=');
    expect(live.text.endsWith('\nlivez check passed\n')).toBe(true);
    expect(live.text).not.toContain('shutdown');
  });

  it('?exclude marks a check as excluded and warns about unknown names', async () => {
    const r = await c.get('/healthz?verbose&exclude=etcd');
    expect(r.text).toContain('[+]etcd excluded: ok\n');
    const unknown = await c.get('/healthz?verbose&exclude=nosuch');
    expect(unknown.status).toBe(200);
    expect(unknown.text).toContain('warn: some health checks cannot be excluded: no matches for "nosuch"\n');
    expect((await c.get('/healthz?exclude=etcd')).text).toBe('ok');
  });

  it('single checks: /livez/ping ok, unknown check 404', async () => {
    const ping = await c.get('/livez/ping');
    expect(ping.status).toBe(200);
    expect(ping.text).toBe('ok');
    expect((await c.get('/readyz/etcd')).text).toBe('ok');
    expect((await c.get('/livez/nosuch')).status).toBe(404);
  });

  it('kubectl get --raw /readyz?verbose sends verbose= and Accept json', async () => {
    const r = await c.get('/readyz?verbose=', { accept: 'application/json, */*' });
    expect(r.status).toBe(200);
    expect(r.text).toContain('readyz check passed');
  });
});

describe('shutdown', () => {
  it('readyz fails with reason withheld, livez stays ok', async () => {
    const s = await startTestServer();
    try {
      expect((await s.get('/readyz')).status).toBe(200);
      s.api.beginShutdown();
      const r = await s.get('/readyz');
      expect(r.status).toBe(500);
      expect(r.headers['Content-Type']).toBe(TEXT);
      expect(r.text).toContain('[+]ping ok\n');
      expect(r.text).toContain('[-]shutdown failed: reason withheld\n');
      expect(r.text.endsWith('readyz check failed\n')).toBe(true);
      const verbose = await s.get('/readyz?verbose');
      expect(verbose.status).toBe(500);
      expect(verbose.text).toContain('[-]shutdown failed: reason withheld\n');
      const single = await s.get('/readyz/shutdown');
      expect(single.status).toBe(500);
      expect(single.text.startsWith('internal server error: ')).toBe(true);
      expect((await s.get('/readyz?exclude=shutdown')).status).toBe(200);
      expect((await s.get('/livez')).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
