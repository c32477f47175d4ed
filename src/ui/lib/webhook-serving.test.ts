// The Webhooks panel's logic without a browser: learner functions compiled and served through
// the page's handler registry, their answers as AdmissionReview responses, the call log, and the
// configuration the panel creates.
import { describe, expect, it } from 'vitest';
import { PageWebhookHandlers } from '../../hosts/sw/page/webhook-handlers';
import { EXAMPLES, base64Utf8, toAdmissionResponse, webhookConfiguration } from './webhook-functions';
import { WebhookServing } from './webhook-serving';

const review = (labels: Record<string, string> | undefined, uid = 'u-1') =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: { uid, kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' }, name: 'cm', namespace: 'default', operation: 'CREATE', userInfo: { username: 'alice' }, object: { metadata: { name: 'cm', ...(labels ? { labels } : {}) } }, oldObject: null, dryRun: false, options: null },
  });

function setup() {
  const page = new PageWebhookHandlers(() => undefined);
  const serving = new WebhookServing((path, handler) => page.register(path, handler), 3, () => new Date('2026-01-01T10:00:00.000Z'));
  /** The HTTP answer the worker would get; status 0 when the page serves no such path. */
  const call = async (path: string, body: string): Promise<{ status: number; body: any }> => {
    const reply = await page.serve({ type: 'webhook-call', path, url: `http://x${path}`, body });
    if (reply.type !== 'webhook-answer') return { status: 0, body: reply.type };
    return { status: reply.status, body: reply.status === 200 ? JSON.parse(reply.body) : reply.body };
  };
  return { page, serving, call };
}

describe('webhook serving', () => {
  it('serves the deny example: denies reject=yes, allows the rest, and logs both calls', async () => {
    const { serving, call, page } = setup();
    const deny = EXAMPLES.find((e) => e.kind === 'validating')!;
    serving.serve('/webhooks/deny', deny.kind, deny.body);
    expect(page.paths()).toEqual(['/webhooks/deny']);
    expect(await call('/webhooks/deny', review({ reject: 'yes' }))).toEqual({ status: 200, body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u-1', allowed: false, status: { code: 403, message: 'ConfigMaps labelled reject=yes are not allowed' } } } });
    expect((await call('/webhooks/deny', review(undefined, 'u-2'))).body).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u-2', allowed: true } });
    expect(serving.snapshot().log.map((e) => [e.time, e.request, e.outcome, e.ok])).toEqual([
      ['10:00:00.000', 'CREATE configmaps default/cm by alice', 'allowed', true],
      ['10:00:00.000', 'CREATE configmaps default/cm by alice', 'denied (403): ConfigMaps labelled reject=yes are not allowed', true],
    ]);
  });

  it('serves the mutating example with a base64 JSON patch, adding labels whether or not some exist', async () => {
    const { serving, call } = setup();
    const add = EXAMPLES.find((e) => e.kind === 'mutating')!;
    serving.serve('/webhooks/add', add.kind, add.body);
    const withLabels = await call('/webhooks/add', review({ a: 'b' }));
    const response = (withLabels.body as { response: { patch: string; patchType: string; warnings: string[] } }).response;
    expect(response.patchType).toBe('JSONPatch');
    expect(JSON.parse(atob(response.patch))).toEqual([{ op: 'add', path: '/metadata/labels/team', value: 'playground' }]);
    const without = (await call('/webhooks/add', review(undefined))).body as { response: { patch: string } };
    expect(JSON.parse(atob(without.response.patch))).toEqual([{ op: 'add', path: '/metadata/labels', value: { team: 'playground' } }]);
    expect(serving.snapshot().log[0]!.outcome).toBe('allowed, patch: add /metadata/labels, warnings: the add-team webhook labelled this object');
    // Already labelled: nothing to patch.
    expect((await call('/webhooks/add', review({ team: 'x' }))).body).toEqual({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u-1', allowed: true } });
  });

  it('turns a thrown error or a bad result into a failed call (HTTP 500), logged; keeps the log bounded', async () => {
    const { serving, call } = setup();
    serving.serve('/t', 'validating', 'return request.object.spec.missing.field;');
    expect(await call('/t', review(undefined))).toEqual({ status: 500, body: "TypeError: Cannot read properties of undefined (reading 'missing')" });
    serving.serve('/t', 'validating', 'return "yes";');
    expect(await call('/t', review(undefined))).toEqual({ status: 500, body: 'Error: the function must return an object with allowed: true or false, not "yes"' });
    expect(serving.snapshot().log.map((e) => [e.outcome, e.ok])).toEqual([
      ['error: Error: the function must return an object with allowed: true or false, not "yes"', false],
      ["error: TypeError: Cannot read properties of undefined (reading 'missing')", false],
    ]);
    serving.serve('/t', 'validating', 'return { allowed: true };');
    for (let i = 0; i < 3; i++) await call('/t', review(undefined));
    expect(serving.snapshot().log.map((e) => e.id)).toEqual([5, 4, 3]);
  });

  it('refuses a syntax error before serving, and stops serving a path', async () => {
    const { serving, call, page } = setup();
    expect(() => serving.serve('/s', 'validating', 'return {')).toThrow(SyntaxError);
    expect(serving.snapshot().served).toEqual([]);
    serving.serve('/s', 'validating', 'return { allowed: true };');
    let notified = 0;
    const unsubscribe = serving.subscribe(() => notified++);
    serving.stop('/s');
    unsubscribe();
    expect(notified).toBe(1);
    expect(serving.snapshot().served).toEqual([]);
    expect(page.paths()).toEqual([]);
    expect(await call('/s', review(undefined))).toEqual({ status: 0, body: 'webhook-unserved' });
  });
});

describe('webhook functions', () => {
  it('encode UTF-8 patches and reject a patch that is not a list', () => {
    expect(atob(base64Utf8('é'))).toBe('\xc3\xa9');
    expect(toAdmissionResponse({ allowed: true, patch: [], auditAnnotations: { n: 1 } })).toEqual({ allowed: true, auditAnnotations: { n: '1' } });
    expect(() => toAdmissionResponse({ allowed: true, patch: { op: 'add' } })).toThrow('patch must be a list of JSON Patch operations');
  });

  it('build the configuration pointing at the URL, sideEffects None', () => {
    expect(webhookConfiguration({ kind: 'mutating', name: 'add-team', url: 'http://127.0.0.1:8080/webhooks/add-team', resources: ['configmaps'], failurePolicy: 'Fail', timeoutSeconds: 5 })).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'add-team' },
      webhooks: [
        {
          name: 'add-team.kube-playground.local',
          clientConfig: { url: 'http://127.0.0.1:8080/webhooks/add-team' },
          rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          timeoutSeconds: 5,
        },
      ],
    });
  });
});
