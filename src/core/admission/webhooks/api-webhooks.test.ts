// Admission webhooks through the in-process API server, with a transport function that answers
// AdmissionReviews the way a webhook server would.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, startWithStoredState, JSON_PATCH, type TestClient } from '../../testing/api-server';
import type { WebhookCall } from './call';

type Answer = (review: any, call: WebhookCall) => any;

const b64 = (s: string) => btoa(s);

function transport(answer: Answer, seen: any[]) {
  return async (call: WebhookCall) => {
    const review = JSON.parse(call.body);
    seen.push({ url: call.url, review });
    const response = answer(review, call);
    return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...response } }) };
  };
}

function hook(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    clientConfig: { url: `https://hooks.test/${name}` },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...extra,
  };
}

const validating = (name: string, webhooks: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks });
const mutating = (name: string, webhooks: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name }, webhooks });
const cm = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data: { a: '1' } });

const V = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const M = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const CM = '/api/v1/namespaces/default/configmaps';

let client: TestClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('validating webhooks', () => {
  it('denies with the webhook message and code, and sends a full AdmissionReview', async () => {
    const seen: any[] = [];
    client = await startTestServer({
      webhookTransport: transport((rv) => (rv.request.object.metadata.labels?.reject === 'yes' ? { allowed: false, status: { code: 403, message: 'labelled reject' } } : { allowed: true, warnings: ['looked at it'], auditAnnotations: { checked: 'yes' } }), seen),
    });
    expect((await client.post(V, validating('deny', [hook('deny.example.com')]))).status).toBe(201);
    const denied = await client.post(CM, cm('bad', { reject: 'yes' }));
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('admission webhook "deny.example.com" denied the request: labelled reject');
    const ok = await client.post(`${CM}?fieldManager=me`, cm('good'));
    expect(ok.status).toBe(201);
    expect(ok.headers['Warning']).toBe('299 - "looked at it"');
    const req = seen[1].review.request;
    expect(seen[1].url).toBe('https://hooks.test/deny.example.com?timeout=10s');
    expect(req.kind).toEqual({ group: '', version: 'v1', kind: 'ConfigMap' });
    expect(req.resource).toEqual({ group: '', version: 'v1', resource: 'configmaps' });
    expect(req.operation).toBe('CREATE');
    expect(req.namespace).toBe('default');
    expect(req.userInfo.username).toBe('kubernetes-admin');
    expect(req.oldObject).toBeNull();
    expect(req.dryRun).toBe(false);
    expect(req.options).toEqual({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'me' });
    const events = client.api.audit!.events();
    const created = events.filter((e) => e.verb === 'create' && e.objectRef?.name === undefined && e.objectRef?.resource === 'configmaps').pop();
    expect(created?.annotations?.['deny.example.com/checked']).toBe('yes');
  });

  it('applies failurePolicy to a failing call', async () => {
    client = await startTestServer({ webhookTransport: async () => Promise.reject(new Error('dial tcp 127.0.0.1:1: connect: connection refused')) });
    await client.post(V, validating('v', [hook('fail.example.com'), hook('ignore.example.com', { failurePolicy: 'Ignore', rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['secrets'] }] })]));
    const res = await client.post(CM, cm('x'));
    expect(res.status).toBe(500);
    expect(res.json.message).toBe('Internal error occurred: failed calling webhook "fail.example.com": Post "https://hooks.test/fail.example.com?timeout=10s": dial tcp 127.0.0.1:1: connect: connection refused');
    const secret = await client.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    expect(secret.status).toBe(201);
  });

  it('refuses a dry run against side effects, calls None hooks with dryRun true', async () => {
    const seen: any[] = [];
    // v1 refuses sideEffects Some now; a configuration stored by an older release still has it.
    client = await startWithStoredState(
      { webhookTransport: transport(() => ({ allowed: true }), seen) },
      (c) => c.post(V, validating('v', [hook('some.example.com', { sideEffects: 'None' })])),
      (key, value) => (key.includes('validatingwebhookconfigurations') ? value.replace('"sideEffects":"None"', '"sideEffects":"Some"') : value),
    );
    const res = await client.post(`${CM}?dryRun=All`, cm('dry'));
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('admission webhook "some.example.com" does not support dry run');
    await client.del(`${V}/v`);
    await client.post(V, validating('v2', [hook('none.example.com', { sideEffects: 'NoneOnDryRun' })]));
    expect((await client.post(`${CM}?dryRun=All`, cm('dry'))).status).toBe(201);
    expect(seen.at(-1).review.request.dryRun).toBe(true);
  });

  it('times out after timeoutSeconds', async () => {
    client = await startTestServer({ webhookTransport: () => new Promise(() => undefined) });
    await client.post(V, validating('v', [hook('slow.example.com', { timeoutSeconds: 1 })]));
    const res = await client.post(CM, cm('slow'));
    expect(res.status).toBe(500);
    expect(res.json.message).toContain('failed calling webhook "slow.example.com": Post "https://hooks.test/slow.example.com?timeout=1s": context deadline exceeded');
  });

  it('sees updates (old and new object) and selects by namespace and object labels', async () => {
    const seen: any[] = [];
    client = await startTestServer({ webhookTransport: transport((rv) => ({ allowed: rv.request.object.data.a !== 'no' }), seen) });
    await client.post(CM, cm('u', { watched: 'true' }));
    await client.post(V, validating('v', [hook('sel.example.com', { objectSelector: { matchLabels: { watched: 'true' } }, namespaceSelector: { matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['default'] }] } })]));
    const res = await client.patch(`${CM}/u`, { data: { a: 'no' } });
    expect(res.status).toBe(400);
    expect(res.json.message).toBe('admission webhook "sel.example.com" denied the request without explanation');
    expect(seen[0].review.request.operation).toBe('UPDATE');
    expect(seen[0].review.request.oldObject.data.a).toBe('1');
    expect(seen[0].review.request.options.kind).toBe('UpdateOptions');
    // Unlabelled objects are not selected.
    await client.post(CM, cm('other'));
    expect((await client.patch(`${CM}/other`, { data: { a: 'no' } })).status).toBe(200);
    expect(seen).toHaveLength(1);
  });
});

describe('mutating webhooks', () => {
  it('patches the object, re-invokes IfNeeded hooks, and records mutation annotations', async () => {
    const calls: string[] = [];
    client = await startTestServer({
      webhookTransport: async (call) => {
        const rv = JSON.parse(call.body);
        const name = call.url.split('/').pop()!.split('?')[0];
        calls.push(name);
        let patch: unknown[] | undefined;
        if (name === 'a' && !rv.request.object.metadata.labels?.a) patch = [{ op: 'add', path: '/metadata/labels/a', value: 'added' }];
        if (name === 'b') patch = rv.request.object.metadata.labels?.b ? undefined : [{ op: 'add', path: '/metadata/labels/b', value: 'x' }];
        const response: any = { uid: rv.request.uid, allowed: true };
        if (patch) Object.assign(response, { patchType: 'JSONPatch', patch: b64(JSON.stringify(patch)) });
        return { status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }) };
      },
    });
    await client.post(M, mutating('m', [hook('a.example.com', { clientConfig: { url: 'https://h/a' }, reinvocationPolicy: 'IfNeeded' }), hook('b.example.com', { clientConfig: { url: 'https://h/b' } })]));
    const res = await client.post(CM, cm('m', { keep: 'me' }));
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels).toEqual({ keep: 'me', a: 'added', b: 'x' });
    expect(calls).toEqual(['a', 'b', 'a']);
    const got = await client.get(`${CM}/m`);
    expect(got.json.metadata.labels.b).toBe('x');
    // Updates are patched too, through the optimistic path.
    const upd = await client.request('PATCH', `${CM}/m`, [{ op: 'remove', path: '/metadata/labels/b' }], { 'content-type': JSON_PATCH });
    expect(upd.status).toBe(200);
    expect(upd.json.metadata.labels.b).toBe('x');
    const ev = client.api.audit!.events().filter((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps').pop();
    expect(ev?.annotations?.['mutation.webhook.admission.k8s.io/round_0_index_0']).toBe('{"configuration":"m","webhook":"a.example.com","mutated":true}');
  });

  it('rejects an invalid answer as a call failure', async () => {
    client = await startTestServer({ webhookTransport: async (call) => ({ status: 200, body: JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'wrong', allowed: true } }) }) });
    await client.post(M, mutating('m', [hook('uid.example.com')]));
    const res = await client.post(CM, cm('x'));
    expect(res.status).toBe(500);
    expect(res.json.message).toMatch(/^Internal error occurred: failed calling webhook "uid.example.com": expected response.uid="[^"]+", got "wrong"$/);
  });
});

describe('PodSecurity warn and audit', () => {
  const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });

  it('warns and annotates for pods and workload templates, enforces on significant pod updates', async () => {
    client = await startTestServer();
    await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ps', labels: { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'baseline', 'pod-security.kubernetes.io/audit-version': 'v1.23' } } });
    const res = await client.post('/api/v1/namespaces/ps/pods', pod('p'));
    expect(res.status).toBe(201);
    expect(res.headers['Warning']).toContain('299 - "would violate PodSecurity \\"restricted:latest\\": allowPrivilegeEscalation != false (container \\"c\\" must set securityContext.allowPrivilegeEscalation=false)');
    const dep = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx' }] } } } };
    const created = await client.post('/apis/apps/v1/namespaces/ps/deployments', dep);
    expect(created.status).toBe(201);
    expect(created.headers['Warning']).toContain('host namespaces (hostNetwork=true)');
    const ev = client.api.audit!.events().filter((e) => e.objectRef?.resource === 'deployments').pop();
    expect(ev?.annotations?.['pod-security.kubernetes.io/audit']).toBe('would violate PodSecurity "baseline:v1.23": host namespaces (hostNetwork=true)');
    // Enforce now: an insignificant update passes, an image change is checked.
    await client.patch('/api/v1/namespaces/ps', { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
    expect((await client.patch('/api/v1/namespaces/ps/pods/p', { metadata: { labels: { x: 'y' } } })).status).toBe(200);
    const img = await client.patch('/api/v1/namespaces/ps/pods/p', { spec: { containers: [{ name: 'c', image: 'nginx:2' }] } }, 'application/strategic-merge-patch+json');
    expect(img.status).toBe(403);
    expect(img.json.message).toContain('pods "p" is forbidden: violates PodSecurity "restricted:latest"');
  });
});
