import { describe, expect, it } from 'vitest';
import { createApiClient, TABLE_ACCEPT } from './api';
import { KubeApiError, describeError } from './api-errors';
import { joinBase, queryString, resourcePath } from './api-paths';
import { AGGREGATED_DISCOVERY_ACCEPT } from './discovery';

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** A fetch that records requests and answers from a queue of responders. */
function fakeFetch(...answers: Array<(req: Seen) => Response>) {
  const seen: Seen[] = [];
  const fn = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const req: Seen = { url: String(input), method: init.method ?? 'GET', headers: (init.headers ?? {}) as Record<string, string>, body: init.body as string | undefined };
    seen.push(req);
    const answer = answers.shift();
    if (!answer) throw new Error(`unexpected request ${req.method} ${req.url}`);
    return answer(req);
  };
  return { fetch: fn as typeof fetch, seen };
}
const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const deployments = { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true };
const nodes = { group: '', version: 'v1', resource: 'nodes', namespaced: false };

const conflict = {
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 409, reason: 'Conflict',
  message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
  details: { name: 'web', group: 'apps', kind: 'deployments', causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }] },
};

describe('paths', () => {
  it('builds core, group, namespaced and cluster paths', () => {
    expect(resourcePath(deployments, 'default', 'web')).toBe('/apis/apps/v1/namespaces/default/deployments/web');
    expect(resourcePath(deployments)).toBe('/apis/apps/v1/deployments');
    expect(resourcePath(nodes, 'default', 'n1', 'status')).toBe('/api/v1/nodes/n1/status');
    expect(queryString({ a: 1, b: '', c: undefined, d: false, e: true, f: 'x y' })).toBe('?a=1&e=true&f=x+y');
    expect(queryString({})).toBe('');
    expect(joinBase('http://h:8080/', '/api')).toBe('http://h:8080/api');
    expect(joinBase('/sub/', 'apis')).toBe('/sub/apis');
  });
});

describe('createApiClient', () => {
  it('discovers core and named groups with aggregated discovery', async () => {
    const core = { kind: 'APIGroupDiscoveryList', items: [{ metadata: {}, versions: [{ version: 'v1', resources: [
      { resource: 'pods', responseKind: { group: '', version: '', kind: 'Pod' }, scope: 'Namespaced', singularResource: 'pod', verbs: ['get', 'list'], shortNames: ['po'], subresources: [{ subresource: 'status' }, { subresource: 'log' }] },
      { resource: 'nodes', responseKind: { kind: 'Node' }, scope: 'Cluster', singularResource: 'node', verbs: ['get'] },
    ] }] }] };
    const groups = { kind: 'APIGroupDiscoveryList', items: [{ metadata: { name: 'apps' }, versions: [{ version: 'v1', resources: [{ resource: 'deployments', responseKind: { kind: 'Deployment' }, scope: 'Namespaced', verbs: ['patch'] }] }] }] };
    const f = fakeFetch(json(core), json(groups));
    const tree = await createApiClient({ apiBase: '/', fetch: f.fetch }).discover();
    expect(f.seen.map((s) => [s.url, s.headers.Accept])).toEqual([['/api', AGGREGATED_DISCOVERY_ACCEPT], ['/apis', AGGREGATED_DISCOVERY_ACCEPT]]);
    expect(tree.map((g) => [g.name, g.preferredVersion])).toEqual([['', 'v1'], ['apps', 'v1']]);
    expect(tree[0]!.versions[0]!.resources.map((r) => [r.kind, r.namespaced])).toEqual([['Node', false], ['Pod', true]]);
    expect(tree[0]!.versions[0]!.resources[1]).toMatchObject({ group: '', version: 'v1', resource: 'pods', singular: 'pod', shortNames: ['po'], subresources: ['status', 'log'] });
    expect(tree[1]!.versions[0]!.resources[0]).toMatchObject({ group: 'apps', kind: 'Deployment', resource: 'deployments' });
  });

  it('rejects a discovery answer that is not aggregated', async () => {
    const f = fakeFetch(json({ kind: 'APIVersions', versions: ['v1'] }), json({ kind: 'APIGroupList' }));
    await expect(createApiClient({ apiBase: '/', fetch: f.fetch }).discover()).rejects.toThrow('expected an APIGroupDiscoveryList, got APIVersions');
  });

  it('reads a Table page with its paging metadata', async () => {
    const table = {
      kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '120', continue: 'tok2', remainingItemCount: 998 },
      columnDefinitions: [{ name: 'Name', type: 'string', format: 'name', priority: 0 }],
      rows: [{ cells: ['cm-0001'], object: { kind: 'PartialObjectMetadata', metadata: { name: 'cm-0001' } } }],
    };
    const f = fakeFetch(json(table));
    const page = await createApiClient({ apiBase: 'http://h:1', fetch: f.fetch }).tablePage({ group: '', version: 'v1', resource: 'configmaps', namespaced: true }, { namespace: 'ns', limit: 2, continue: 'tok1', labelSelector: 'app=x' });
    expect(f.seen[0]!.url).toBe('http://h:1/api/v1/namespaces/ns/configmaps?limit=2&continue=tok1&labelSelector=app%3Dx');
    expect(f.seen[0]!.headers.Accept).toBe(TABLE_ACCEPT);
    expect(page).toMatchObject({ resourceVersion: '120', continue: 'tok2', remainingItemCount: 998, columns: [{ name: 'Name' }] });
    expect(page.rows[0]!.cells).toEqual(['cm-0001']);
  });

  it('sends server-side apply with the apply content type, manager, force and dry run', async () => {
    const f = fakeFetch(json({ kind: 'Deployment' }));
    await createApiClient({ apiBase: '/', fetch: f.fetch }).apply(deployments, 'default', 'web', 'kind: Deployment\n', { fieldManager: 'bob', force: true, dryRun: true });
    expect(f.seen[0]).toEqual({
      url: '/apis/apps/v1/namespaces/default/deployments/web?dryRun=All&fieldManager=bob&force=true',
      method: 'PATCH',
      headers: { Accept: 'application/json', 'Content-Type': 'application/apply-patch+yaml' },
      body: 'kind: Deployment\n',
    });
  });

  it('surfaces a conflict with its code, reason, message and causes', async () => {
    const f = fakeFetch(json(conflict, 409));
    const err = await createApiClient({ apiBase: '/', fetch: f.fetch }).apply(deployments, 'default', 'web', {}, { fieldManager: 'bob' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect(describeError(err)).toEqual({ code: 409, reason: 'Conflict', message: conflict.message, causes: conflict.details.causes });
    expect((err as KubeApiError).body).toEqual(conflict);
  });

  it('keeps a non-JSON error body as the message, and network failures as code 0', async () => {
    const f = fakeFetch(() => new Response('upstream down\n', { status: 502, statusText: 'Bad Gateway' }));
    const err = await createApiClient({ apiBase: '/', fetch: f.fetch }).get(nodes, undefined, 'n').catch((e: unknown) => e);
    expect(describeError(err)).toEqual({ code: 502, reason: 'Bad Gateway', message: 'upstream down', causes: [] });
    expect(describeError(new TypeError('Failed to fetch'))).toEqual({ code: 0, reason: 'NetworkError', message: 'Failed to fetch', causes: [] });
  });

  it('creates, replaces, patches and deletes with the right verbs and content types', async () => {
    const f = fakeFetch(json({}), json({}), json({}), json({}), json({}), json({ kind: 'Status', status: 'Success' }));
    const c = createApiClient({ apiBase: '/', fetch: f.fetch });
    await c.create(deployments, 'default', 'apiVersion: apps/v1\n');
    await c.replace(deployments, 'default', 'web', { kind: 'Deployment' }, { fieldManager: 'ui' });
    await c.patch(deployments, 'default', 'web', 'merge', { spec: { replicas: 2 } });
    await c.patch(deployments, 'default', 'web', 'json', [{ op: 'remove', path: '/spec/replicas' }], { dryRun: true });
    await c.patch(deployments, 'default', 'web', 'strategic', '{"spec":{}}');
    await c.delete(deployments, 'default', 'web', { propagationPolicy: 'Foreground' });
    expect(f.seen.map((s) => [s.method, s.url, s.headers['Content-Type'] ?? null, s.body ?? null])).toEqual([
      ['POST', '/apis/apps/v1/namespaces/default/deployments', 'application/yaml', 'apiVersion: apps/v1\n'],
      ['PUT', '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=ui', 'application/json', '{"kind":"Deployment"}'],
      ['PATCH', '/apis/apps/v1/namespaces/default/deployments/web', 'application/merge-patch+json', '{"spec":{"replicas":2}}'],
      ['PATCH', '/apis/apps/v1/namespaces/default/deployments/web?dryRun=All', 'application/json-patch+json', '[{"op":"remove","path":"/spec/replicas"}]'],
      ['PATCH', '/apis/apps/v1/namespaces/default/deployments/web', 'application/strategic-merge-patch+json', '{"spec":{}}'],
      ['DELETE', '/apis/apps/v1/namespaces/default/deployments/web?propagationPolicy=Foreground', null, null],
    ]);
  });

  it('reports health checks, failing ones included, and reads the OpenAPI index', async () => {
    const f = fakeFetch(
      () => new Response('[+]ping ok\n[-]etcd failed: reason withheld\nlivez check failed\n', { status: 500 }),
      json({ paths: { 'apis/apps/v1': { serverRelativeURL: '/openapi/v3/apis/apps/v1?hash=AB' } } }),
      json({ openapi: '3.0.0' }),
    );
    const c = createApiClient({ apiBase: '/base/', fetch: f.fetch });
    expect(await c.health('livez')).toEqual({ ok: false, code: 500, text: '[+]ping ok\n[-]etcd failed: reason withheld\nlivez check failed\n' });
    const index = await c.openapiIndex();
    expect(index).toEqual({ 'apis/apps/v1': '/openapi/v3/apis/apps/v1?hash=AB' });
    expect(await c.openapiDocument(index['apis/apps/v1']!)).toEqual({ openapi: '3.0.0' });
    expect(f.seen.map((s) => s.url)).toEqual(['/base/livez?verbose', '/base/openapi/v3', '/base/openapi/v3/apis/apps/v1?hash=AB']);
  });

  it('lists every page for a relist, keeping the first page version', async () => {
    const f = fakeFetch(
      json({ items: [{ metadata: { name: 'a' } }], metadata: { resourceVersion: '10', continue: 'c1' } }),
      json({ items: [{ metadata: { name: 'b' } }], metadata: { resourceVersion: '10' } }),
    );
    const result = await createApiClient({ apiBase: '/', fetch: f.fetch }).list(deployments, { namespace: 'default' });
    expect(result).toEqual({ items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }], resourceVersion: '10' });
    expect(f.seen[1]!.url).toBe('/apis/apps/v1/namespaces/default/deployments?limit=500&continue=c1');
  });
});
