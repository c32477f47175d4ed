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
