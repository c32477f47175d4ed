// Custom-object validation that real CRDs lean on: oneOf/anyOf/allOf/not (cert-manager style
// "exactly one of"), list-type set/map uniqueness, int-or-string patterns, worded as v1.23 words them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCustomObject } from './validate-object';
import { fieldErrorBody } from '../meta/status';
import { startTestServer, type TestClient } from '../testing/api-server';
import type { FieldError } from '../meta/status';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        acme: { type: 'object', properties: { server: { type: 'string' } } },
        ca: { type: 'object', properties: { secretName: { type: 'string' } } },
        mode: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['port', 'protocol'],
          items: { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        volumes: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
        limit: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^[0-9]+(Mi|Gi)?$' },
      },
      oneOf: [{ required: ['acme'] }, { required: ['ca'] }],
      not: { required: ['mode'], properties: { mode: { enum: ['legacy'] } } },
    },
  },
};

const messages = (errs: FieldError[]) => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const check = (spec: Record<string, unknown>) => messages(validateCustomObject({ apiVersion: 'x/v1', kind: 'X', metadata: {}, spec }, schema));

describe('composite schemas (kube-openapi schemaPropsValidator)', () => {
  it('oneOf: exactly one branch passes', () => {
    expect(check({ acme: {} })).toEqual([]);
    expect(check({ acme: {}, ca: {} })).toEqual(['<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives']);
    expect(check({})).toEqual(['<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found none valid', 'spec.acme: Required value']);
  });

  it('not: the value must not match', () => {
    expect(check({ ca: {}, mode: 'modern' })).toEqual([]);
    expect(check({ ca: {}, mode: 'legacy' })).toEqual(['<nil>: Invalid value: "": "spec" must not validate the schema (not)']);
  });

  it('anyOf and allOf', () => {
    const s = { type: 'object', properties: { spec: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }], allOf: [{ required: ['c'] }, { required: ['d'] }] } } };
    const run = (spec: object) => messages(validateCustomObject({ spec }, s));
    expect(run({ a: 1, c: 1, d: 1 })).toEqual([]);
    expect(run({ c: 1, d: 1 })).toEqual(['<nil>: Invalid value: "": "spec" must validate at least one schema (anyOf)', 'spec.a: Required value']);
    expect(run({ b: 1, c: 1 })).toEqual(['spec.d: Required value', '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf)']);
    expect(run({ b: 1 })).toEqual(['spec.c: Required value', 'spec.d: Required value', '<nil>: Invalid value: "": "spec" must validate all the schemas (allOf). None validated']);
  });

  it('int-or-string: the anyOf branches pass and a string still meets the pattern', () => {
    expect(check({ ca: {}, limit: 3 })).toEqual([]);
    expect(check({ ca: {}, limit: '2Gi' })).toEqual([]);
    expect(check({ ca: {}, limit: 'lots' })).toEqual([`spec.limit: Invalid value: "lots": spec.limit in body should match '^[0-9]+(Mi|Gi)?$'`]);
  });
});

describe('list-type set and map uniqueness (apiextensions listtype)', () => {
  it('a set reports the first repeat of each value', () => {
    expect(check({ ca: {}, tags: ['a', 'b', 'a', 'a', 'b'] })).toEqual(['spec.tags[2]: Duplicate value: "a"', 'spec.tags[4]: Duplicate value: "b"']);
  });

  it('a map compares the key fields, printed as Go prints the key map', () => {
    expect(check({ ca: {}, ports: [{ port: 80, protocol: 'TCP' }, { port: 80, protocol: 'UDP' }, { port: 80, protocol: 'TCP' }] })).toEqual([
      'spec.ports[2]: Duplicate value: map[string]interface {}{"port":80, "protocol":"TCP"}',
    ]);
    expect(check({ ca: {}, volumes: [{ name: 'a' }, { name: 'b' }, { name: 'a' }] })).toEqual(['spec.volumes[2]: Duplicate value: map[string]interface {}{"name":"a"}']);
  });

  it('on update the rules ratchet: an object that already had repeats may still be updated', () => {
    const stored = { apiVersion: 'x/v1', kind: 'X', metadata: {}, spec: { ca: {}, tags: ['a', 'a'] } };
    const next = { ...stored, spec: { ...stored.spec, mode: 'modern', tags: ['a', 'a', 'b', 'b'] } };
    expect(validateCustomObject(next, schema, stored)).toEqual([]);
    const clean = { ...stored, spec: { ca: {}, tags: ['a'] } };
    expect(messages(validateCustomObject(next, schema, clean))).toEqual(['spec.tags[1]: Duplicate value: "a"', 'spec.tags[3]: Duplicate value: "b"']);
  });

  it('a map list refuses items that are not objects', () => {
    expect(check({ ca: {}, volumes: [{ name: 'a' }, 'b'] })).toContain('spec.volumes[1]: Invalid value: "b": must be an object for an array of list-type map');
  });
});

describe('embedded resources, metadata names and lengths', () => {
  const s = {
    type: 'object',
    properties: {
      metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 8 } } },
      spec: {
        type: 'object',
        properties: {
          template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
          manifests: { type: 'array', items: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } },
          code: { type: 'string', maxLength: 3 },
        },
      },
    },
  };
  const run = (obj: Record<string, unknown>) => messages(validateCustomObject(obj, s));

  it('an embedded resource needs a string apiVersion (a group/version) and a kind (a DNS-1035 label in lower case)', () => {
    expect(run({ metadata: { name: 'a' }, spec: { template: { apiVersion: 'v1', kind: 'Pod' }, manifests: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] } })).toEqual([]);
    expect(run({ metadata: { name: 'a' }, spec: { template: {}, manifests: [{ apiVersion: 'a/b/c', kind: 'Not_A_Kind' }, { apiVersion: 1, kind: '' }] } })).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.kind: Required value',
      'spec.manifests[0].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c',
      `spec.manifests[0].kind: Invalid value: "Not_A_Kind": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      'spec.manifests[1].apiVersion: Invalid value: 1: must be a string',
      'spec.manifests[1].kind: Invalid value: "": must not be empty',
    ]);
  });

  it("an embedded resource's metadata is checked as ObjectMeta (names as path segments, a missing name allowed)", () => {
    const template = (metadata: object) => ({ metadata: { name: 'a' }, spec: { template: { apiVersion: 'v1', kind: 'Pod', metadata } } });
    expect(run(template({ labels: { app: 'web' } }))).toEqual([]);
    expect(run(template({ name: 'a/b', namespace: 'Bad_NS', labels: { '-x': 'y' } }))).toEqual([
      `spec.template.metadata.name: Invalid value: "a/b": may not contain '/'`,
      `spec.template.metadata.namespace: Invalid value: "Bad_NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      `spec.template.metadata.labels: Invalid value: "-x": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    ]);
  });

  it('the schema may restrict metadata.name; maxLength is worded as v1.23 field.TooLong', () => {
    expect(run({ metadata: { name: 'much-too-long' }, spec: { code: 'abcd' } })).toEqual(['metadata.name: Too long: must have at most 8 bytes', 'spec.code: Too long: must have at most 3 bytes']);
  });
});

describe('through the API', () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await startTestServer();
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'issuers.rules.example.com' },
      spec: {
        group: 'rules.example.com',
        scope: 'Namespaced',
        names: { plural: 'issuers', singular: 'issuer', kind: 'Issuer' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      },
    };
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  });
  afterAll(async () => {
    await c.close();
  });

  it('answers 422 with the composite and duplicate causes', async () => {
    const r = await c.post('/apis/rules.example.com/v1/namespaces/default/issuers', { apiVersion: 'rules.example.com/v1', kind: 'Issuer', metadata: { name: 'both' }, spec: { acme: {}, ca: {}, tags: ['x', 'x'] } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      'Issuer.rules.example.com "both" is invalid: [<nil>: Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives, spec.tags[1]: Duplicate value: "x"]',
    );
    expect(r.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": "spec" must validate one and only one schema (oneOf). Found 2 valid alternatives', field: '<nil>' },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "x"', field: 'spec.tags[1]' },
    ]);
    expect((await c.get('/apis/rules.example.com/v1/namespaces/default/issuers/both')).status).toBe(404);
  });
});
