import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { createApiServer } from '../../core/api';
import { exportCluster, importCluster } from '../../hosts/sw/cluster-dump';
import { decodeScenario, describeObjects, encodeScenario, importText, isSystemObject, scenarioData, scenarioLink, ScenarioError, type ScenarioObject } from './scenario';

const headers = (contentType = 'application/json') => ({ 'content-type': contentType, accept: 'application/json' });
const body = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const exported = async (server: Awaited<ReturnType<typeof createApiServer>>) =>
  parseAllDocuments(await exportCluster(server)).map((d) => d.toJSON() as ScenarioObject);

describe('scenario links', () => {
  it('round-trip objects and a lesson through the fragment, in base64url', async () => {
    const objects = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'café', namespace: 'default' }, data: { text: 'ünïcødé\u0008\n'.repeat(50) } }];
    const data = await encodeScenario({ objects, lesson: 'conflict' });
    expect(data).toMatch(/^[A-Za-z0-9_-]+$/);
    // Compressed: the repeated text packs far below its JSON size.
    expect(data.length).toBeLessThan(JSON.stringify(objects).length / 2);
    expect(await decodeScenario(data)).toEqual({ objects, lesson: 'conflict' });
    const link = await scenarioLink('https://example.test/play/#/learn', { objects });
    expect(link.startsWith('https://example.test/play/#/scenario/')).toBe(true);
    expect(await decodeScenario(scenarioData(new URL(link).hash)!)).toEqual({ objects });
    expect(scenarioData('#/learn')).toBeUndefined();
  });

  it('refuse damaged, foreign and oversized data with a clear reason', async () => {
    const bad = (data: string) => decodeScenario(data).then(() => 'accepted', (e: Error) => (e instanceof ScenarioError ? e.message : `crash: ${e}`));
    expect(await bad('')).toMatch(/no scenario data/);
    expect(await bad('abc$')).toMatch(/characters base64url does not use/);
    const good = await encodeScenario({ objects: [] });
    expect(await bad(good.slice(0, -3))).toMatch(/does not unpack|not JSON/);
    expect(await bad('AAAA')).toMatch(/does not unpack|not JSON/);
    const pack = async (v: unknown) => {
      const packed = new Uint8Array(await new Response(new Blob([JSON.stringify(v)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
      return btoa(String.fromCharCode(...packed)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    };
    expect(await bad(await pack({ v: 2, objects: [] }))).toMatch(/format version 2/);
    expect(await bad(await pack([1]))).toMatch(/not a JSON object/);
    expect(await bad(await pack({ v: 1 }))).toMatch(/no list of objects/);
    expect(await bad(await pack({ v: 1, objects: [{ kind: 'ConfigMap' }] }))).toMatch(/object 1 .* metadata\.name/);
    expect(await bad(await pack({ v: 1, objects: [], lesson: '../x' }))).toMatch(/lesson id/);
    // A deflate bomb: 40 MB of one byte packs into a short link, and is refused while unpacking.
    const bomb = new Uint8Array(await new Response(new Blob([new Uint8Array(40 * 1024 * 1024).fill(32)]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
    let binary = '';
    for (let i = 0; i < bomb.length; i += 0x8000) binary += String.fromCharCode(...bomb.subarray(i, i + 0x8000));
    expect(await bad(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))).toMatch(/larger than 32 MB/);
  });

  it('leave out every object a fresh cluster already has', async () => {
    // The page's cluster runs the simulated one too: nodes, leases, the default StorageClass.
    const living = await createApiServer({ controllers: '*' });
    await living.controllers!.runUntilIdle();
    expect((await exported(living)).filter((o) => !isSystemObject(o)).map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([]);
    await living.close();
    const server = await createApiServer();
    expect((await exported(server)).filter((o) => !isSystemObject(o)).map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([]);
    // The user's namespace, its objects and service accounts stay; what the controllers add to it does not.
    await server.handle({ method: 'POST', url: '/api/v1/namespaces', headers: headers(), body: body({ metadata: { name: 'team' } }) });
    await server.handle({ method: 'POST', url: '/api/v1/namespaces/team/serviceaccounts', headers: headers(), body: body({ metadata: { name: 'robot' } }) });
    await server.handle({ method: 'POST', url: '/api/v1/namespaces/default/configmaps', headers: headers(), body: body({ metadata: { name: 'cfg' } }) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const kept = (await exported(server)).filter((o) => !isSystemObject(o)).map((o) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`);
    expect(kept.sort()).toEqual(['ConfigMap/default/cfg', 'Namespace//team', 'ServiceAccount/team/robot']);
    await server.close();
    // RBAC's bootstrap objects carry kube's bootstrapping label; a user's role does not.
    expect(isSystemObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'admin', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } } })).toBe(true);
    expect(isSystemObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reader' } })).toBe(false);
    expect(describeObjects(kept.map((k) => ({ kind: k.split('/')[0] })))).toBe('ConfigMap × 1, Namespace × 1, ServiceAccount × 1');
  });

  it('open into a fresh cluster with every manager kept (the import reads the JSON documents)', async () => {
    const source = await createApiServer();
    await source.handle({ method: 'POST', url: '/api/v1/namespaces', headers: headers(), body: body({ metadata: { name: 'team' } }) });
    const cm = '/api/v1/namespaces/team/configmaps/shared';
    const apply = (manager: string, data: Record<string, string>) =>
      source.handle({ method: 'PATCH', url: `${cm}?fieldManager=${manager}&force=true`, headers: headers('application/apply-patch+yaml'), body: body({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data }) });
    expect((await apply('alice', { a: '1', text: 'line\nnext "quoted" \\ \u0001' })).status).toBe(201);
    expect((await apply('bob', { b: '2' })).status).toBe(200);
    const before = JSON.parse((await source.handle({ method: 'GET', url: cm, headers: headers() })).body as string);
    const scenario = await decodeScenario(await encodeScenario({ objects: (await exported(source)).filter((o) => !isSystemObject(o)) }));
    await source.close();

    const target = await createApiServer();
    const result = await importCluster(target, importText(scenario.objects));
    expect(result).toEqual({ created: 2, failed: [] });
    const after = JSON.parse((await target.handle({ method: 'GET', url: cm, headers: headers() })).body as string);
    const { resourceVersion: _a, ...beforeMeta } = before.metadata;
    const { resourceVersion: _b, ...afterMeta } = after.metadata;
    expect(afterMeta).toEqual(beforeMeta);
    expect(after.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual(['alice', 'bob']);
    expect(after.data).toEqual(before.data);
    await target.close();
  });
});
