import { describe, expect, it } from 'vitest';
import { parseTarget, requestInfo } from './requestinfo';

function info(method: string, url: string) {
  const { path, query } = parseTarget(url);
  const i = requestInfo(method, path!, query);
  return { res: i.isResourceRequest, verb: i.verb, group: i.group, version: i.version, ns: i.namespace, resource: i.resource, name: i.name, sub: i.subresource };
}

const R = (verb: string, group: string, version: string, ns: string, resource: string, name = '', sub = '') => ({ res: true, verb, group, version, ns, resource, name, sub });

describe('requestInfo', () => {
  it('parses core and named-group collections, objects and subresources', () => {
    expect(info('GET', '/api/v1/namespaces/ns/pods')).toEqual(R('list', '', 'v1', 'ns', 'pods'));
    expect(info('GET', '/api/v1/namespaces/ns/pods/p')).toEqual(R('get', '', 'v1', 'ns', 'pods', 'p'));
    expect(info('GET', '/api/v1/namespaces/ns/pods/p/status')).toEqual(R('get', '', 'v1', 'ns', 'pods', 'p', 'status'));
    expect(info('GET', '/api/v1/namespaces/ns/pods/p/log?container=c')).toEqual(R('get', '', 'v1', 'ns', 'pods', 'p', 'log'));
    expect(info('PUT', '/apis/apps/v1/namespaces/ns/deployments/web/scale')).toEqual(R('update', 'apps', 'v1', 'ns', 'deployments', 'web', 'scale'));
    expect(info('GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/admin')).toEqual(R('get', 'rbac.authorization.k8s.io', 'v1', '', 'clusterroles', 'admin'));
    expect(info('GET', '/api/v1/nodes')).toEqual(R('list', '', 'v1', '', 'nodes'));
  });

  it('treats the all-namespaces path as a list without namespace', () => {
    expect(info('GET', '/api/v1/pods')).toEqual(R('list', '', 'v1', '', 'pods'));
    expect(info('GET', '/apis/apps/v1/deployments?limit=500')).toEqual(R('list', 'apps', 'v1', '', 'deployments'));
  });

  it('maps methods to verbs', () => {
    expect(info('POST', '/api/v1/namespaces/ns/configmaps').verb).toBe('create');
    expect(info('PUT', '/api/v1/namespaces/ns/configmaps/x').verb).toBe('update');
    expect(info('PATCH', '/api/v1/namespaces/ns/configmaps/x').verb).toBe('patch');
    expect(info('DELETE', '/api/v1/namespaces/ns/configmaps/x').verb).toBe('delete');
    expect(info('DELETE', '/api/v1/namespaces/ns/configmaps').verb).toBe('deletecollection');
    expect(info('HEAD', '/api/v1/namespaces/ns/configmaps/x').verb).toBe('get');
  });

  it('recognises watch by query and by the legacy /watch/ prefix', () => {
    expect(info('GET', '/api/v1/namespaces/ns/pods?watch=true')).toEqual(R('watch', '', 'v1', 'ns', 'pods'));
    expect(info('GET', '/api/v1/namespaces/ns/pods?watch=1')).toEqual(R('watch', '', 'v1', 'ns', 'pods'));
    expect(info('GET', '/api/v1/namespaces/ns/pods?watch=false').verb).toBe('list');
    expect(info('GET', '/api/v1/watch/namespaces/ns/pods')).toEqual(R('watch', '', 'v1', 'ns', 'pods'));
    expect(info('GET', '/api/v1/watch/namespaces/ns/pods/p')).toEqual(R('watch', '', 'v1', 'ns', 'pods', 'p'));
    expect(info('GET', '/api/v1/watch/pods')).toEqual(R('watch', '', 'v1', '', 'pods'));
    expect(info('GET', '/apis/apps/v1/watch/namespaces/ns/deployments')).toEqual(R('watch', 'apps', 'v1', 'ns', 'deployments'));
    expect(info('GET', '/api/v1/watch/namespaces')).toEqual(R('watch', '', 'v1', '', 'namespaces'));
    // watch=true on a named object is still a get (kube only turns lists into watches).
    expect(info('GET', '/api/v1/namespaces/ns/pods/p?watch=true').verb).toBe('get');
  });

  it('parses the namespace object and its subresources', () => {
    expect(info('GET', '/api/v1/namespaces')).toEqual(R('list', '', 'v1', '', 'namespaces'));
    expect(info('GET', '/api/v1/namespaces/ns')).toEqual(R('get', '', 'v1', 'ns', 'namespaces', 'ns'));
    expect(info('PUT', '/api/v1/namespaces/ns/status')).toEqual(R('update', '', 'v1', 'ns', 'namespaces', 'ns', 'status'));
    expect(info('PUT', '/api/v1/namespaces/ns/finalize')).toEqual(R('update', '', 'v1', 'ns', 'namespaces', 'ns', 'finalize'));
    expect(info('DELETE', '/api/v1/namespaces/ns')).toEqual(R('delete', '', 'v1', 'ns', 'namespaces', 'ns'));
  });

  it('ignores a trailing slash and decodes escaped segments', () => {
    expect(info('GET', '/api/v1/namespaces/ns/pods/')).toEqual(R('list', '', 'v1', 'ns', 'pods'));
    expect(info('GET', '/api/v1/namespaces/ns/configmaps/a%3Ab')).toEqual(R('get', '', 'v1', 'ns', 'configmaps', 'a:b'));
  });

  it('marks discovery and other non-resource paths', () => {
    for (const p of ['/api', '/apis', '/api/v1', '/apis/apps', '/apis/apps/v1', '/version', '/healthz', '/readyz/ping', '/openapi/v3']) {
      const i = info('GET', p);
      expect(i.res, p).toBe(false);
      expect(i.verb, p).toBe('get');
    }
    expect(info('POST', '/healthz').verb).toBe('post');
  });

  it('splits the query from the path', () => {
    const { path, query } = parseTarget('/api/v1/pods?labelSelector=a%3Db&limit=5');
    expect(path).toBe('/api/v1/pods');
    expect(query.get('labelSelector')).toBe('a=b');
    expect(query.get('limit')).toBe('5');
    expect(parseTarget('/api').query.toString()).toBe('');
  });

  it('reads the path as Go does: unescaped once, %2F a separator, + kept, a bad escape refused', () => {
    expect(info('GET', '/api/v1/namespaces/ns/configmaps/a%2Fb')).toEqual(R('get', '', 'v1', 'ns', 'configmaps', 'a', 'b'));
    expect(info('GET', '/api/v1/namespaces/ns/configmaps/a%2525')).toEqual(R('get', '', 'v1', 'ns', 'configmaps', 'a%25'));
    expect(parseTarget('/api/v1/namespaces/ns/configmaps/a+b').path).toBe('/api/v1/namespaces/ns/configmaps/a+b');
    expect(parseTarget('/api/v1/namespaces/ns/configmaps/%C3%A9').path).toBe('/api/v1/namespaces/ns/configmaps/é');
    for (const bad of ['/api/v1/a%zz', '/api/v1/a%2', '/api/v1/a%', '/api/v1/%g0']) expect(parseTarget(bad).path, bad).toBeUndefined();
    // A bad escape in the query is not the path's: the query keeps the other pairs.
    expect(parseTarget('/api/v1/pods?x=%zz').path).toBe('/api/v1/pods');
  });

  it('reads the query as go1.17 url.ParseQuery: pairs with a bad escape or a semicolon are dropped', () => {
    const q = parseTarget('/api/v1/pods?limit=5;x=1&labelSelector=a%zz&fieldSelector=b+c&&watch=1&%41=%42').query;
    expect([...q]).toEqual([['fieldSelector', 'b c'], ['watch', '1'], ['A', 'B']]);
  });
});
