import { describe, expect, it } from 'vitest';
import { requestInfo } from '../meta/requestinfo';
import { compareFlowSchemas, coversEverything, matchesRequest, matchesSubjects } from './match';
import { Classifier } from './classifier';
import { MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS } from '../kinds/flowcontrol-bootstrap-objects';
import type { Obj } from '../registry/objects';

const info = (method: string, url: string) => {
  const q = url.indexOf('?');
  return requestInfo(method, q < 0 ? url : url.slice(0, q), new URLSearchParams(q < 0 ? '' : url.slice(q + 1)));
};
const user = (username: string, ...groups: string[]) => ({ username, groups: [...groups, 'system:authenticated'] });

describe('subjects', () => {
  it('match users, groups and service accounts (one, or every account of a namespace)', () => {
    const rule = (subject: Obj) => ({ subjects: [subject] });
    expect(matchesSubjects(user('alice'), rule({ kind: 'User', user: { name: 'alice' } }))).toBe(true);
    expect(matchesSubjects(user('bob'), rule({ kind: 'User', user: { name: 'alice' } }))).toBe(false);
    expect(matchesSubjects(user('bob'), rule({ kind: 'User', user: { name: '*' } }))).toBe(true);
    expect(matchesSubjects(user('bob', 'dev'), rule({ kind: 'Group', group: { name: 'dev' } }))).toBe(true);
    const kubeSystem = rule({ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } });
    expect(matchesSubjects(user('system:serviceaccount:kube-system:x'), kubeSystem)).toBe(true);
    expect(matchesSubjects(user('system:serviceaccount:kube-system-2:x'), kubeSystem)).toBe(false);
    const one = rule({ kind: 'ServiceAccount', serviceAccount: { namespace: 'ci', name: 'bot' } });
    expect(matchesSubjects(user('system:serviceaccount:ci:bot'), one)).toBe(true);
    expect(matchesSubjects(user('system:serviceaccount:ci:bot2'), one)).toBe(false);
    // A subject without its member struct matches nothing.
    expect(matchesSubjects(user('alice'), rule({ kind: 'User' }))).toBe(false);
  });
});

describe('rules', () => {
  const leases = { resourceRules: [{ verbs: ['get', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] };
  it('resource rules: verb, group, resource/subresource, namespace or cluster scope', () => {
    expect(matchesRequest(info('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'), leases)).toBe(true);
    expect(matchesRequest(info('DELETE', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/l'), leases)).toBe(false);
    // leases across namespaces is a cluster-scoped list: the rule has no clusterScope.
    expect(matchesRequest(info('GET', '/apis/coordination.k8s.io/v1/leases'), { resourceRules: [{ ...leases.resourceRules[0], verbs: ['list'] }] })).toBe(false);
    const nodes = { resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true, namespaces: ['*'] }] };
    expect(matchesRequest(info('PATCH', '/api/v1/nodes/n1/status'), nodes)).toBe(true);
    expect(matchesRequest(info('GET', '/api/v1/nodes/n1/proxy'), nodes)).toBe(false);
    expect(matchesRequest(info('GET', '/version'), nodes)).toBe(false);
  });

  it('non-resource rules: exact paths, "*" and trailing-* prefixes', () => {
    const probes = { nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] };
    expect(matchesRequest(info('GET', '/readyz'), probes)).toBe(true);
    expect(matchesRequest(info('GET', '/readyz/etcd'), probes)).toBe(false);
    expect(matchesRequest(info('GET', '/healthz'), { nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }] })).toBe(false);
    expect(matchesRequest(info('GET', '/healthz/ping'), { nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz/*'] }] })).toBe(true);
    expect(matchesRequest(info('GET', '/api/v1/pods'), probes)).toBe(false);
  });

  it('knows a rule that covers every request, and the matching order', () => {
    expect(coversEverything(MANDATORY_FLOW_SCHEMAS[0].spec.rules[0])).toBe(true);
    expect(coversEverything(leases)).toBe(false);
    const fs = (name: string, p: number) => ({ metadata: { name }, spec: { matchingPrecedence: p } });
    expect([fs('b', 800), fs('z', 2), fs('a', 800)].sort(compareFlowSchemas).map((f) => f.metadata.name)).toEqual(['z', 'a', 'b']);
  });
});

describe('classifier over the bootstrap configuration', () => {
  const byName = (objs: readonly Obj[]) => new Map<string, Obj>(objs.map((o, i) => [o.metadata.name as string, { ...o, metadata: { ...o.metadata, uid: `${o.metadata.name}-${i}` } }]));
  const schemas = byName([...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]);
  const levels = byName([...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]);
  const classify = (u: { username: string; groups: string[] }, method: string, url: string) => {
    const c = new Classifier(schemas, levels).classify(u, info(method, url));
    return c && `${c.flowSchema}/${c.priorityLevel}`;
  };

  it('sends each kind of client where kube-apiserver sends it', () => {
    expect(classify(user('kubernetes-admin', 'system:masters'), 'GET', '/api/v1/pods')).toBe('exempt/exempt');
    expect(classify(user('alice'), 'GET', '/healthz')).toBe('probes/exempt');
    expect(classify({ username: 'system:anonymous', groups: ['system:unauthenticated'] }, 'GET', '/livez')).toBe('probes/exempt');
    expect(classify(user('alice'), 'GET', '/api/v1/namespaces/default/pods')).toBe('global-default/global-default');
    expect(classify(user('system:node:n1', 'system:nodes'), 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1')).toBe('system-node-high/node-high');
    expect(classify(user('system:node:n1', 'system:nodes'), 'GET', '/api/v1/namespaces/default/secrets/s')).toBe('system-nodes/system');
    expect(classify(user('system:kube-scheduler'), 'PUT', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-scheduler')).toBe('system-leader-election/leader-election');
    expect(classify(user('system:kube-scheduler'), 'GET', '/api/v1/pods')).toBe('kube-scheduler/workload-high');
    const ksa = user('system:serviceaccount:kube-system:job-controller', 'system:serviceaccounts', 'system:serviceaccounts:kube-system');
    expect(classify(ksa, 'GET', '/api/v1/namespaces/kube-system/configmaps/x')).toBe('system-leader-election/leader-election');
    expect(classify(ksa, 'GET', '/api/v1/namespaces/default/configmaps/x')).toBe('workload-leader-election/leader-election');
    expect(classify(ksa, 'GET', '/apis/batch/v1/jobs')).toBe('kube-system-service-accounts/workload-high');
    const sa = user('system:serviceaccount:ci:bot', 'system:serviceaccounts', 'system:serviceaccounts:ci');
    expect(classify(sa, 'DELETE', '/api/v1/namespaces/ci/pods/p')).toBe('service-accounts/workload-low');
    // Nobody in system:authenticated or system:unauthenticated: the catch-all takes it.
    expect(classify({ username: 'odd', groups: [] }, 'GET', '/api/v1/pods')).toBe('catch-all/catch-all');
  });

  it('skips a schema whose priority level is missing, and follows invalidation', () => {
    const s = new Map(schemas);
    const l = new Map(levels);
    const classifier = new Classifier(s, l);
    const alice = user('alice');
    const list = info('GET', '/api/v1/pods');
    expect(classifier.classify(alice, list)?.flowSchema).toBe('global-default');
    l.delete('global-default');
    classifier.invalidate();
    expect(classifier.classify(alice, list)?.flowSchema).toBe('catch-all');
    s.set('alice-first', { metadata: { name: 'alice-first', uid: 'u' }, spec: { priorityLevelConfiguration: { name: 'system' }, matchingPrecedence: 50, rules: [{ subjects: [{ kind: 'User', user: { name: 'alice' } }], resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'], clusterScope: true }] }] } });
    classifier.invalidate();
    expect(classifier.classify(alice, list)).toEqual({ flowSchema: 'alice-first', flowSchemaUid: 'u', priorityLevel: 'system', priorityLevelUid: 'system-2' });
    expect(classifier.classify(alice, info('GET', '/api/v1/namespaces/x/pods'))?.flowSchema).toBe('catch-all');
  });
});
