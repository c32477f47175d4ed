import { describe, expect, it } from 'vitest';
import { ruleAllows } from './rules';
import type { Attributes, PolicyRule } from './types';

const res = (verb: string, apiGroup: string, resource: string, extra: Partial<Attributes & { kind: 'resource' }> = {}): Attributes => ({
  kind: 'resource',
  verb,
  apiGroup,
  resource,
  namespace: 'default',
  ...extra,
});
const path = (verb: string, p: string): Attributes => ({ kind: 'nonResource', verb, path: p });

const cases: [string, PolicyRule, Attributes, boolean][] = [
  ['exact verb/group/resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', '', 'pods'), true],
  ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('list', '', 'pods'), false],
  ['verb *', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('deletecollection', '', 'pods'), true],
  ['core rule does not match apps', { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }, res('get', 'apps', 'deployments'), false],
  ['apps rule does not match core', { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, res('get', '', 'pods'), false],
  ['group *', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, res('get', 'apps', 'deployments'), true],
  ['no apiGroups matches nothing', { verbs: ['get'], resources: ['pods'] }, res('get', '', 'pods'), false],
  ['resource *', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', '', 'secrets'), true],
  ['resource * covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', '', 'pods', { subresource: 'log' }), true],
  ['plain resource does not cover its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', '', 'pods', { subresource: 'log' }), false],
  ['resource/subresource', { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }, res('get', 'apps', 'deployments', { subresource: 'scale' }), true],
  ['resource/subresource does not cover the resource', { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }, res('get', 'apps', 'deployments'), false],
  ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, res('update', 'apps', 'deployments', { subresource: 'status' }), true],
  ['*/subresource other sub', { verbs: ['update'], apiGroups: ['*'], resources: ['*/status'] }, res('update', 'apps', 'deployments', { subresource: 'scale' }), false],
  ['*/subresource not the main resource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/status'] }, res('get', '', 'pods'), false],
  // kube has no `resource/*` wildcard: it is a literal subresource name.
  ['resource/* is literal', { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, res('get', '', 'pods', { subresource: 'log' }), false],
  ['resourceNames hit', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }, res('get', '', 'configmaps', { name: 'b' }), true],
  ['resourceNames miss', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('get', '', 'configmaps', { name: 'c' }), false],
  ['resourceNames never match list', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('list', '', 'configmaps'), false],
  ['resourceNames never match create', { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('create', '', 'configmaps'), false],
  ['resourceNames match a named watch', { verbs: ['watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, res('watch', '', 'configmaps', { name: 'a' }), true],
  ['empty resourceNames = all names', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: [] }, res('get', '', 'configmaps', { name: 'z' }), true],
  ['resource rule never matches a path', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, path('get', '/healthz'), false],
  ['url exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz'), true],
  ['url exact is not a prefix', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz/etcd'), false],
  ['url * suffix', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path('get', '/apis/apps/v1'), true],
  ['url * suffix is a raw prefix', { verbs: ['get'], nonResourceURLs: ['/api*'] }, path('get', '/apis'), true],
  ['url /apis/* does not match /apis', { verbs: ['get'], nonResourceURLs: ['/apis/*'] }, path('get', '/apis'), false],
  ['url *', { verbs: ['get'], nonResourceURLs: ['*'] }, path('get', '/logs'), true],
  ['url verb mismatch', { verbs: ['get'], nonResourceURLs: ['*'] }, path('post', '/logs'), false],
  ['url rule never matches a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, res('get', '', 'pods'), false],
];

describe('ruleAllows', () => {
  it.each(cases)('%s', (_name, rule, attrs, want) => {
    expect(ruleAllows(attrs, rule)).toBe(want);
  });
});
