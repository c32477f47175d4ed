// Mutating and validating webhook configurations are validated through the API as kube-apiserver
// v1.23 does (after the v1 defaulting), on create and on update.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOf, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const V = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const M = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';

const hook = (extra: Record<string, unknown> = {}) => ({
  name: 'check.example.com',
  clientConfig: { url: 'https://hooks.example.com/check' },
  // Matches nothing this test writes, so no call is ever made.
  rules: [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['widgets'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});
const validating = (name: string, webhooks: unknown[]) => ({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name }, webhooks });

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('webhook configuration validation', () => {
  it('refuses an invalid configuration with a 422 listing every cause', async () => {
    const name = uniqueName('vwc');
    const r = await c.post(V, validating(name, [{ rules: [null], sideEffects: '1', failurePolicy: 'a' }, hook({ clientConfig: { url: 'http://h/x' } }), hook()]));
    expect(statusOf(r)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        `ValidatingWebhookConfiguration.admissionregistration.k8s.io "${name}" is invalid: [` +
        'webhooks[0].name: Required value, ' +
        'webhooks[0].rules[0].operations: Required value, ' +
        'webhooks[0].rules[0].apiGroups: Required value, ' +
        'webhooks[0].rules[0].apiVersions: Required value, ' +
        'webhooks[0].rules[0].resources: Required value, ' +
        'webhooks[0].failurePolicy: Unsupported value: "a": supported values: "Fail", "Ignore", ' +
        'webhooks[0].sideEffects: Unsupported value: "1": supported values: "None", "NoneOnDryRun", ' +
        'webhooks[0].clientConfig: Required value: exactly one of url or service is required, ' +
        'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1, ' +
        "webhooks[1].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path], " +
        'webhooks[2].name: Duplicate value: "check.example.com"]',
      reason: 'Invalid',
      details: {
        name,
        group: 'admissionregistration.k8s.io',
        kind: 'ValidatingWebhookConfiguration',
        causes: [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].name' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].rules[0].operations' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].rules[0].apiGroups' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].rules[0].apiVersions' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].rules[0].resources' },
          { reason: 'FieldValueNotSupported', message: 'Unsupported value: "a": supported values: "Fail", "Ignore"', field: 'webhooks[0].failurePolicy' },
          { reason: 'FieldValueNotSupported', message: 'Unsupported value: "1": supported values: "None", "NoneOnDryRun"', field: 'webhooks[0].sideEffects' },
          { reason: 'FieldValueRequired', message: 'Required value: exactly one of url or service is required', field: 'webhooks[0].clientConfig' },
          { reason: 'FieldValueRequired', message: 'Required value: must specify one of v1, v1beta1', field: 'webhooks[0].admissionReviewVersions' },
          { reason: 'FieldValueInvalid', message: "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]", field: 'webhooks[1].clientConfig.url' },
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: "check.example.com"', field: 'webhooks[2].name' },
        ],
      },
      code: 422,
    });
    expect((await c.get(`${V}/${name}`)).status).toBe(404);
  });

  it('creates a valid configuration, defaulted', async () => {
    const name = uniqueName('vwc');
    const r = await c.post(V, validating(name, [hook()]));
    expect(r.status).toBe(201);
    expect(r.json.webhooks[0]).toMatchObject({ failurePolicy: 'Fail', matchPolicy: 'Equivalent', timeoutSeconds: 10, rules: [{ scope: '*' }] });
    const m = await c.post(M, { ...validating(uniqueName('mwc'), [hook({ clientConfig: { service: { namespace: 'hooks', name: 'svc' } } })]), kind: 'MutatingWebhookConfiguration' });
    expect(m.status).toBe(201);
    expect(m.json.webhooks[0]).toMatchObject({ clientConfig: { service: { port: 443 } }, reinvocationPolicy: 'Never' });
  });

  it('refuses an invalid update and keeps the stored object', async () => {
    const name = uniqueName('vwc');
    const created = await c.post(V, validating(name, [hook()]));
    expect(created.status).toBe(201);
    const next = { ...created.json, webhooks: [hook({ timeoutSeconds: 31, clientConfig: { service: { namespace: 'hooks', name: 'svc', port: 0 } } })] };
    const r = await c.put(`${V}/${name}`, next);
    expect(r.status).toBe(422);
    expect(statusOf(r).message).toBe(
      `ValidatingWebhookConfiguration.admissionregistration.k8s.io "${name}" is invalid: [` +
        'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds, ' +
        'webhooks[0].clientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive]',
    );
    const got = await c.get(`${V}/${name}`);
    expect(got.json).toEqual(created.json);
  });
});

describe('webhook URLs the host answers itself', () => {
  it('may be http on a local origin (the Service Worker\'s page); every other URL must be https', async () => {
    const local = await startTestServer({ localWebhookOrigins: ['http://127.0.0.1:8080'] });
    try {
      expect((await local.post(V, validating('local-http', [hook({ clientConfig: { url: 'http://127.0.0.1:8080/webhooks/x' } })]))).status).toBe(201);
      const other = await local.post(V, validating('other-http', [hook({ clientConfig: { url: 'http://127.0.0.1:9090/webhooks/x' } })]));
      expect(statusOf(other).details.causes).toEqual([
        { reason: 'FieldValueInvalid', message: "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]", field: 'webhooks[0].clientConfig.url' },
      ]);
    } finally {
      await local.close();
    }
    // Without the option (the Node host), kube's rule holds for every URL.
    expect((await c.post(V, validating('plain-http', [hook({ clientConfig: { url: 'http://127.0.0.1:8080/webhooks/x' } })]))).status).toBe(422);
  });
});
