// Keys named as Object.prototype members through the Node host (issue 22, section 1): a merge
// patch with `__proto__` must not change how the server treats the next request, and ConfigMap
// keys such as `constructor` are stored and read back through kubectl.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlOk, startCluster, type Cluster } from './harness';

describe('keys named as Object.prototype members over HTTP', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  });

  it('a merge patch with __proto__ is answered 200 and creates of other kinds still succeed', async () => {
    const cm = `${c.url}/api/v1/namespaces/default/configmaps`;
    const created = await fetch(cm, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"metadata":{"name":"v"},"data":{"a":"b"}}' });
    expect(created.status).toBe(201);
    const patched = await fetch(`${cm}/v`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"__proto__":{"x":"1"}}' });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data).toEqual({ a: 'b' });
    // A header named like a prototype member is just a header.
    const odd = await fetch(`${c.url}/api/v1/namespaces/default/configmaps/v`, { headers: { constructor: 'x', 'hasOwnProperty': 'y' } });
    expect(odd.status).toBe(200);
    await kubectlOk(c, ['create', 'secret', 'generic', 's', '--from-literal=k=v']);
    await kubectlOk(c, ['create', 'deployment', 'web', '--image=nginx']);
    expect((await kubectlOk(c, ['get', 'deployment', 'web', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])).stdout).toBe('nginx');
  });

  it('stores and returns ConfigMap keys named as prototype members', async () => {
    const keys = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
    await kubectlOk(c, ['create', 'configmap', 'odd', ...keys.map((k) => `--from-literal=${k}=v-${k}`)]);
    const data = JSON.parse((await kubectlOk(c, ['get', 'configmap', 'odd', '-o', 'json'])).stdout).data as Record<string, string>;
    expect(Object.keys(data).sort()).toEqual([...keys].sort());
    for (const k of keys) expect(Object.getOwnPropertyDescriptor(data, k)?.value).toBe(`v-${k}`);
    const applied = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  __proto__: a\n  toString: b\n';
    await kubectlOk(c, ['apply', '--server-side', '-f', '-'], applied);
    const got = JSON.parse((await kubectlOk(c, ['get', 'configmap', 'applied', '-o', 'json'])).stdout).data as Record<string, string>;
    expect(Object.entries(got)).toEqual([['__proto__', 'a'], ['toString', 'b']]);
  });
});
