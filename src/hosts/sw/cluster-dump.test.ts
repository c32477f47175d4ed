import { describe, expect, it } from 'vitest';
import { createApiServer } from '../../core/api';
import { exportCluster, importCluster, ownersFirst } from './cluster-dump';

const json = { 'content-type': 'application/json', accept: 'application/json' };

describe('export and import', () => {
  it('round-trips objects (with managedFields) through multi-document YAML', async () => {
    const source = await createApiServer();
    const body = new TextEncoder().encode(JSON.stringify({ metadata: { name: 'cfg', namespace: 'team' }, data: { a: '1' } }));
    await source.handle({ method: 'POST', url: '/api/v1/namespaces', headers: json, body: new TextEncoder().encode('{"metadata":{"name":"team"}}') });
    const created = await source.handle({ method: 'POST', url: '/api/v1/namespaces/team/configmaps', headers: json, body });
    expect(created.status).toBe(201);
    const original = JSON.parse(created.body as string).metadata;
    const yaml = await exportCluster(source);
    expect(yaml.startsWith('---\n')).toBe(true);
    expect(yaml).toContain('kind: ConfigMap');
    expect(yaml).toContain('managedFields:');
    expect(yaml.match(/^kind: Namespace$/gm)!.length).toBeGreaterThanOrEqual(5);
    await source.close();

    const target = await createApiServer();
    const result = await importCluster(target, yaml);
    expect(result.failed).toEqual([]);
    // Besides the namespace and the ConfigMap: the token Secrets of the source's service accounts
    // (their names are random, so none exists in the target).
    const tokenSecrets = yaml.match(/^type: kubernetes\.io\/service-account-token$/gm)?.length ?? 0;
    expect(tokenSecrets).toBeGreaterThanOrEqual(4);
    expect(result.created).toBe(2 + tokenSecrets);
    const got = await target.handle({ method: 'GET', url: '/api/v1/namespaces/team/configmaps/cfg', headers: json });
    expect(got.status).toBe(200);
    const restored = JSON.parse(got.body as string);
    expect(restored.data).toEqual({ a: '1' });
    // uids and creation times are kept; resourceVersions are renumbered by the new store.
    expect(restored.metadata.uid).toBe(original.uid);
    expect(restored.metadata.creationTimestamp).toBe(original.creationTimestamp);
    expect(restored.metadata.resourceVersion).not.toBe('');
    // An ordinary create with a uid in the body still gets a new one.
    const plain = await target.handle({ method: 'POST', url: '/api/v1/namespaces/team/configmaps', headers: json, body: new TextEncoder().encode(JSON.stringify({ metadata: { name: 'other', uid: original.uid } })) });
    expect(JSON.parse(plain.body as string).metadata.uid).not.toBe(original.uid);
    await target.close();
  });

  it('imports owners before their dependents, so the garbage collector keeps the dependents', async () => {
    const cm = (name: string, uid: string, owner?: string) => [
      '---',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: ${name}`,
      '  namespace: default',
      `  uid: ${uid}`,
      ...(owner ? ['  ownerReferences:', '  - apiVersion: v1', '    kind: ConfigMap', `    name: ${owner === 'u-top' ? 'top' : 'mid'}`, `    uid: ${owner}`] : []),
    ].join('\n');
    const yaml = [cm('leaf', 'u-leaf', 'u-mid'), cm('mid', 'u-mid', 'u-top'), cm('top', 'u-top')].join('\n') + '\n';
    const target = await createApiServer();
    const result = await importCluster(target, yaml);
    expect(result).toEqual({ created: 3, failed: [] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const name of ['top', 'mid', 'leaf']) {
      expect((await target.handle({ method: 'GET', url: `/api/v1/namespaces/default/configmaps/${name}`, headers: json })).status).toBe(200);
    }
    await target.close();
  });

  it('ownersFirst keeps the order otherwise and survives an ownership cycle', () => {
    const o = (uid: string, owner?: string) => ({ metadata: { uid, ownerReferences: owner ? [{ uid: owner }] : undefined } });
    const [a, b, c] = [o('a', 'c'), o('b'), o('c', 'a')];
    expect(ownersFirst([a, b, c]).map((x) => x.metadata?.uid)).toEqual(['c', 'a', 'b']);
  });
});

describe('export, reset, import', () => {
  const send = (server: Awaited<ReturnType<typeof createApiServer>>, method: string, url: string, body: unknown, contentType = 'application/json') =>
    server.handle({ method, url, headers: { 'content-type': contentType, accept: 'application/json' }, body: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)) });

  /** The user's objects of an export, without the one field a new history renumbers. */
  const userObjects = (yaml: string) =>
    yaml
      .split(/^---\n/m)
      .filter((d) => /^  name: (lesson|shared|second|web)$/m.test(d))
      .map((d) => d.replace(/^  resourceVersion: .*\n/m, ''));

  it('keeps every object and its managedFields exactly, and the order of resourceVersions', async () => {
    const source = await createApiServer();
    expect((await send(source, 'POST', '/api/v1/namespaces', { metadata: { name: 'lesson' } })).status).toBe(201);
    const cm = '/api/v1/namespaces/lesson/configmaps';
    const apply = (manager: string, data: Record<string, string>, name = 'shared') =>
      send(source, 'PATCH', `${cm}/${name}?fieldManager=${manager}&force=true`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }, 'application/apply-patch+yaml');
    expect((await apply('alice', { a: '1' })).status).toBe(201);
    expect((await apply('bob', { b: '2' })).status).toBe(200);
    expect((await send(source, 'PATCH', `${cm}/shared?fieldManager=carol`, { data: { c: '3' } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await apply('alice', { z: '9' }, 'second')).status).toBe(201);
    const deploy = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    expect((await send(source, 'PATCH', '/apis/apps/v1/namespaces/lesson/deployments/web?fieldManager=alice', deploy, 'application/apply-patch+yaml')).status).toBe(201);
    expect((await send(source, 'PATCH', '/apis/apps/v1/namespaces/lesson/deployments/web?fieldManager=bob', { spec: { replicas: 3 } }, 'application/merge-patch+json')).status).toBe(200);
    const before = await exportCluster(source);
    await source.close();

    const target = await createApiServer();
    const result = await importCluster(target, before);
    expect(result.failed).toEqual([]);
    const after = await exportCluster(target);
    const was = userObjects(before);
    expect(was.length).toBe(4);
    expect(userObjects(after)).toEqual(was);
    // Three managers on one object, as they were.
    const shared = JSON.parse((await target.handle({ method: 'GET', url: `${cm}/shared`, headers: json })).body as string);
    expect(shared.metadata.managedFields.map((e: { manager: string; operation: string }) => `${e.manager}/${e.operation}`)).toEqual(['alice/Apply', 'bob/Apply', 'carol/Update']);
    // The Deployment's generation (2 after bob's change) and status come back too.
    const web = JSON.parse((await target.handle({ method: 'GET', url: '/apis/apps/v1/namespaces/lesson/deployments/web', headers: json })).body as string);
    expect(web.metadata.generation).toBe(2);
    // The order of the writes survives: 'second' was written after 'shared'.
    const rv = (name: string) => target.handle({ method: 'GET', url: `${cm}/${name}`, headers: json }).then((r) => BigInt(JSON.parse(r.body as string).metadata.resourceVersion));
    expect((await rv('shared')) < (await rv('second'))).toBe(true);
    await target.close();
  });
});
