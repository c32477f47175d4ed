import { describe, expect, it } from 'vitest';
import { ruleMatches, type RuleTarget } from './match';
import { webhooksOf } from './config';
import { rejectionError, verifyReviewResponse } from './review';

const t = (over: Partial<RuleTarget> = {}): RuleTarget => ({ group: '', version: 'v1', resource: 'pods', subresource: '', operation: 'CREATE', namespaced: true, ...over });
const rule = (resources: string[], scope = '*') => ({ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources, scope });

describe('webhook rules', () => {
  it('matches resources, subresources and wildcards as kube does', () => {
    expect(ruleMatches(rule(['pods']), t())).toBe(true);
    expect(ruleMatches(rule(['pods']), t({ subresource: 'status' }))).toBe(false);
    expect(ruleMatches(rule(['pods/status']), t({ subresource: 'status' }))).toBe(true);
    expect(ruleMatches(rule(['*']), t({ subresource: 'status' }))).toBe(false);
    expect(ruleMatches(rule(['*/*']), t({ subresource: 'status' }))).toBe(true);
    expect(ruleMatches(rule(['pods/*']), t())).toBe(true);
    expect(ruleMatches(rule(['*/status']), t({ resource: 'services', subresource: 'status' }))).toBe(true);
    expect(ruleMatches(rule(['pods']), t({ operation: 'DELETE' }))).toBe(false);
    expect(ruleMatches({ ...rule(['pods']), operations: ['*'] }, t({ operation: 'DELETE' }))).toBe(true);
    expect(ruleMatches(rule(['pods']), t({ group: 'apps' }))).toBe(false);
  });

  it('honours scope', () => {
    expect(ruleMatches(rule(['*'], 'Cluster'), t())).toBe(false);
    expect(ruleMatches(rule(['*'], 'Namespaced'), t())).toBe(true);
    expect(ruleMatches(rule(['*'], 'Cluster'), t({ resource: 'namespaces', namespaced: false }))).toBe(true);
  });

  it('applies the v1 defaults', () => {
    const [h] = webhooksOf({ metadata: { name: 'c' }, webhooks: [{ name: 'h', clientConfig: { url: 'https://x' }, rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] }] }] }, true);
    expect(h).toMatchObject({ configuration: 'c', failurePolicy: 'Fail', matchPolicy: 'Equivalent', timeoutSeconds: 10, reinvocationPolicy: 'Never' });
    expect(h.rules[0].scope).toBe('*');
  });

  it('reads malformed stored configurations without throwing: a null rule matches nothing', () => {
    const [h] = webhooksOf({ metadata: { name: 'c' }, webhooks: [{ name: 'h', clientConfig: 'x', rules: [null, { operations: null }] }, null] }, false);
    expect(h!.rules.map((r) => ruleMatches(r, t()))).toEqual([false, false]);
    expect(h!.clientConfig).toEqual({});
  });
});

describe('AdmissionReview answers', () => {
  const answer = (response: unknown) => JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response });
  it('checks patches and kinds', () => {
    expect(() => verifyReviewResponse(answer({ uid: 'u', allowed: true, patch: btoa('[]') }), 'u', true)).toThrow('webhook returned response.patch but not response.patchType');
    expect(() => verifyReviewResponse(answer({ uid: 'u', allowed: true, patchType: 'JSONPatch', patch: btoa('[]') }), 'u', false)).toThrow('validating webhooks may not return patches');
    expect(() => verifyReviewResponse(JSON.stringify({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: 'u' } }), 'u', false)).toThrow('expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview');
    const ok = verifyReviewResponse(answer({ uid: 'u', allowed: true, patchType: 'JSONPatch', patch: btoa('[{"op":"add","path":"/x","value":1}]'), warnings: ['w'] }), 'u', true);
    expect(ok.patch).toEqual([{ op: 'add', path: '/x', value: 1 }]);
    expect(ok.warnings).toEqual(['w']);
  });

  it('words rejections as kube', () => {
    const e = rejectionError('h', { code: 200, message: 'no' });
    expect(e.code).toBe(400);
    expect(e.message).toBe('admission webhook "h" denied the request: no');
    expect(rejectionError('h', { reason: 'Because' }).message).toBe('admission webhook "h" denied the request: Because');
  });
});
