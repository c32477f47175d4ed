// Bad input answered as kube-apiserver v1.23 answers it (issue 22, section 2): warning headers
// for names outside Latin-1, self-referencing YAML aliases, continue tokens and resourceVersions
// that are no integers of Go's, label selectors made of keywords, and unknown method tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';

const CM = '/api/v1/namespaces/default/configmaps';
const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
/** The header's bytes (one per char) read as UTF-8, as a Go client reads them. */
const utf8Header = (value: string | undefined) => (value === undefined ? undefined : Buffer.from(value, 'latin1').toString('utf8'));

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
  await c.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'base', labels: { in: 'x', notin: 'y' } } });
  await c.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain' } });
});
afterAll(async () => {
  await c.close();
});

describe('warnings about unknown fields named outside Latin-1', () => {
  it('are sent as the UTF-8 bytes of kube\'s text, a header value every host can write', async () => {
    const r = await c.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'jp' }, '日本': 'x' });
    expect(r.status).toBe(201);
    const value = r.headers['Warning'];
    expect([...value].every((ch) => ch.charCodeAt(0) <= 0xff)).toBe(true);
    expect(utf8Header(value)).toBe('299 - "unknown field \\"日本\\""');
    // The same bytes are a valid fetch header (what the Service Worker builds its Response with).
    expect(new Headers([['Warning', value]]).get('Warning')).toBe(value);
  });
});

describe('YAML whose alias sits inside its own anchor', () => {
  it('is a 400 with go-yaml\'s words, as the create handler wraps a decode error', async () => {
    const body = 'a: &a [*a]\n';
    const r = await c.request('POST', CM, body, { 'content-type': 'application/yaml' });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({
      reason: 'BadRequest',
      message: `the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: anchor 'a' value contains itself (${Buffer.from(body).toString('hex')})`,
    });
  });

  it('is a 400 for server-side apply too', async () => {
    const r = await c.patch(`${CM}/loop?fieldManager=m`, 'apiVersion: v1\nkind: ConfigMap\nmetadata: &m\n  labels: {a: *m}\n', 'application/apply-patch+yaml');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("error decoding YAML: error converting YAML to JSON: yaml: anchor 'm' value contains itself");
  });
});

describe('continue tokens decoded as encoding/json decodes them into the int64 rv', () => {
  const token = (rv: string) => b64url(`{"v":"meta.k8s.io/v1","rv":${rv},"start":"base\\u0000"}`);
  const list = (tok: string) => c.get(`${CM}?limit=1&continue=${encodeURIComponent(tok)}`);

  it('refuses an rv that is not an int64 with Go\'s type error', async () => {
    for (const rv of ['1e+30', '9223372036854775808', '1.5', '-9223372036854775809']) {
      const r = await list(token(rv));
      expect(r.status, rv).toBe(400);
      expect(r.json.message).toBe(`invalid continue token: continue key is not valid: json: cannot unmarshal number ${rv} into Go struct field continueToken.rv of type int64`);
    }
    const r = await list(token('"5"'));
    expect(r.json.message).toBe('invalid continue token: continue key is not valid: json: cannot unmarshal string into Go struct field continueToken.rv of type int64');
    const top = await list(b64url('[1]'));
    expect(top.json.message).toBe('invalid continue token: continue key is not valid: json: cannot unmarshal array into Go value of type etcd3.continueToken');
  });

  it('refuses a base64 that is not RawURLEncoding, and a start key that path cleaning would change', async () => {
    expect((await list('ab+c')).json.message).toBe('invalid continue token: continue key is not valid: illegal base64 data at input byte 2');
    expect((await list('abcde')).json.message).toBe('invalid continue token: continue key is not valid: illegal base64 data at input byte 4');
    const slash = b64url('{"v":"meta.k8s.io/v1","rv":5,"start":"a//b"}');
    expect((await list(slash)).json.message).toBe('invalid continue token: continue key is not valid: a//b');
  });

  it('reads keys case-insensitively and a negative rv as the latest revision, as kube does', async () => {
    const r = await list(b64url('{"V":"meta.k8s.io/v1","RV":-5,"Start":"base\\u0000"}'));
    expect(r.status).toBe(200);
    expect(r.json.items.map((i: any) => i.metadata.name)).not.toContain('base');
  });

  it('a valid int64 past the current revision is etcd\'s future-revision error, passed on as kube does', async () => {
    const r = await list(token('9223372036854775807'));
    expect(r.status).toBe(500);
    expect(r.json.reason).toBeUndefined();
    expect(r.json.message).toBe('etcdserver: mvcc: required revision is a future revision');
  });
});

describe('resourceVersion parsed as strconv.ParseUint, never through a float', () => {
  const beyond = '18446744073709551616';
  const parseError = (rv: string, why: string) => `resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": ${why}`;

  it('the etcd3 store\'s reads (limit, Exact) answer 400 invalid resource version at once', async () => {
    for (const q of [`limit=1&resourceVersion=${beyond}`, `resourceVersion=${beyond}&resourceVersionMatch=Exact`]) {
      const started = Date.now();
      const r = await c.get(`${CM}?${q}`);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(r.status, q).toBe(400);
      expect(r.json).toMatchObject({ reason: 'BadRequest', message: `invalid resource version: ${parseError(beyond, 'value out of range')}` });
    }
  });

  it('the watch cache\'s reads (get, watch, other lists) answer its error as a reasonless 500, without waiting or opening a watch', async () => {
    for (const url of [`${CM}?resourceVersion=${beyond}`, `${CM}/base?resourceVersion=${beyond}`, `${CM}?watch=1&resourceVersion=${beyond}`, `${CM}?resourceVersion=-1`]) {
      const started = Date.now();
      const r = await c.get(url);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(r.status, url).toBe(500);
      expect(r.json.reason).toBeUndefined();
      const rv = new URL(url, 'http://x').searchParams.get('resourceVersion')!;
      expect(r.json.message).toBe(parseError(rv, rv === '-1' ? 'invalid syntax' : 'value out of range'));
    }
  });

  it('the largest uint64 is a valid revision, named exactly in the 504 after the wait', async () => {
    const r = await c.get(`${CM}/base?resourceVersion=18446744073709551615`);
    expect(r.status).toBe(504);
    expect(r.json.message).toMatch(/^Timeout: Too large resource version: 18446744073709551615, current: \d+$/);
  }, 10_000);
});

describe('metadata.resourceVersion of an update, parsed as APIObjectVersioner does', () => {
  const put = async (name: string, rv: string) => {
    const cur = (await c.get(`${CM}/${name}`)).json;
    return c.put(`${CM}/${name}`, { ...cur, metadata: { ...cur.metadata, resourceVersion: rv }, data: { at: rv } });
  };

  it('a text that is no uint64 is the reasonless 500 kube gives, for PUT and patch alike', async () => {
    await c.post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'upd' } });
    for (const [rv, why] of [['abc', 'invalid syntax'], ['18446744073709551616', 'value out of range'], ['-1', 'invalid syntax']]) {
      const r = await put('upd', rv);
      expect(r.status, rv).toBe(500);
      expect(r.json.reason).toBeUndefined();
      expect(r.json.message).toBe(`strconv.ParseUint: parsing "${rv}": ${why}`);
    }
    const patched = await c.patch(`${CM}/upd`, { metadata: { resourceVersion: 'abc' } });
    expect(patched.status).toBe(500);
    expect(patched.json.message).toBe('strconv.ParseUint: parsing "abc": invalid syntax');
  });

  it('compares numbers, not texts, and reads "0" as no precondition', async () => {
    const cur = (await c.get(`${CM}/upd`)).json.metadata.resourceVersion;
    const padded = await put('upd', `00${cur}`);
    expect(padded.status).toBe(200);
    expect(padded.json.metadata.resourceVersion).not.toBe(cur);
    const zero = await put('upd', '0');
    expect(zero.status).toBe(200);
    expect(zero.json.data).toEqual({ at: '0' });
    expect(zero.json.metadata.resourceVersion).toMatch(/^[1-9][0-9]*$/);
  });

  it('a delete precondition is compared as text, as kube does (no parsing)', async () => {
    const r = await c.del(`${CM}/upd`, { preconditions: { resourceVersion: '18446744073709551616' } });
    expect(r.status).toBe(409);
    expect(r.json.message).toMatch(/the ResourceVersion in the precondition \(18446744073709551616\) does not match the ResourceVersion in record \(\d+\)/);
  });
});

describe('label selectors made of the words in and notin', () => {
  it('are keys with an exists requirement, as apimachinery v0.23 parses them (kube answers 200)', async () => {
    for (const sel of ['in', 'notin', '!in']) {
      const r = await c.get(`${CM}?labelSelector=${encodeURIComponent(sel)}`);
      expect(r.status, sel).toBe(200);
      expect(r.json.items.map((i: any) => i.metadata.name), sel).toEqual(sel.startsWith('!') ? expect.not.arrayContaining(['base']) : ['base']);
    }
  });

  it('a missing value list is a 400 unable to parse requirement', async () => {
    const r = await c.get(`${CM}?labelSelector=${encodeURIComponent('a in')}`);
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("unable to parse requirement: found '' expected: '('");
  });
});

describe('method tokens no route serves', () => {
  const notAllowed = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };

  it('are 405 MethodNotAllowed on resource and API paths, lowercase spellings included', async () => {
    for (const [method, url] of [['FOO', CM], ['get', CM], ['get', `${CM}/base`], ['post', CM], ['delete', `${CM}/base`], ['FOO', '/version'], ['get', '/api/v1'], ['get', '/apis']]) {
      const r = await c.request(method, url);
      expect(r.status, `${method} ${url}`).toBe(405);
      expect(r.json, `${method} ${url}`).toEqual(notAllowed);
    }
    // Nothing was deleted by a lowercase delete.
    expect((await c.get(`${CM}/base`)).status).toBe(200);
  });

  it('leave the health checks answering, as their handlers ignore the method in kube', async () => {
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await c.request('FOO', p);
      expect(r.status, p).toBe(200);
      expect(r.text).toBe('ok');
    }
  });
});
