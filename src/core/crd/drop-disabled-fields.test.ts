import { afterEach, describe, expect, it } from 'vitest';
import { dropDisabledCrdFields } from './drop-disabled-fields';
import { startTestServer, type TestClient } from '../testing/api-server';
import type { Obj } from '../registry/objects';

const rule = [{ rule: 'self.a <= 3', message: 'too big' }];

const crdWith = (schema: Obj): Obj => ({ spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: schema } }] } });
const schemaOf = (crd: Obj): Obj => crd.spec.versions[0].schema.openAPIV3Schema;

describe('dropDisabledCrdFields', () => {
  it('with the gate off, drops the rules where upstream walks (properties, additionalProperties, items, dependencies)', () => {
    const crd = crdWith({
      type: 'object',
      'x-kubernetes-validations': rule,
      properties: {
        spec: { type: 'object', 'x-kubernetes-validations': rule, properties: { a: { type: 'integer', 'x-kubernetes-validations': rule } } },
        list: { type: 'array', items: { type: 'object', 'x-kubernetes-validations': rule } },
        map: { type: 'object', additionalProperties: { type: 'string', 'x-kubernetes-validations': rule } },
        deps: { type: 'object', dependencies: { a: { 'x-kubernetes-validations': rule }, b: ['c'] } },
        either: { anyOf: [{ 'x-kubernetes-validations': rule }] },
      },
    });
    dropDisabledCrdFields(crd, undefined, false);
    expect(schemaOf(crd)).toEqual({
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { a: { type: 'integer' } } },
        list: { type: 'array', items: { type: 'object' } },
        map: { type: 'object', additionalProperties: { type: 'string' } },
        deps: { type: 'object', dependencies: { a: {}, b: ['c'] } },
        // upstream's walk does not enter anyOf, allOf, oneOf or not.
        either: { anyOf: [{ 'x-kubernetes-validations': rule }] },
      },
    });
  });

  it('keeps the rules with the gate on, or when the stored CRD already uses them', () => {
    const on = crdWith({ type: 'object', 'x-kubernetes-validations': rule });
    dropDisabledCrdFields(on, undefined, true);
    expect(schemaOf(on)['x-kubernetes-validations']).toEqual(rule);
    const old = crdWith({ type: 'object', properties: { s: { type: 'object', 'x-kubernetes-validations': rule } } });
    const next = crdWith({ type: 'object', 'x-kubernetes-validations': rule });
    dropDisabledCrdFields(next, old, false);
    expect(schemaOf(next)['x-kubernetes-validations']).toEqual(rule);
  });

  it('tolerates CRDs without versions or schemas', () => {
    for (const crd of [{}, { spec: {} }, { spec: { versions: [null, { name: 'v1' }, { schema: null }] } }] as Obj[]) {
      expect(() => dropDisabledCrdFields(crd, undefined, false)).not.toThrow();
    }
  });
});

describe('x-kubernetes-validations through the API', () => {
  let c: TestClient | undefined;
  afterEach(async () => {
    await c?.close();
    c = undefined;
  });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'rules.cel.example.com' },
    spec: {
      group: 'cel.example.com',
      scope: 'Namespaced',
      names: { plural: 'rules', singular: 'rule', kind: 'Rule' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'integer' } }, 'x-kubernetes-validations': rule } } } },
        },
      ],
    },
  };
  const storedSpecSchema = async (client: TestClient) =>
    (await client.get('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/rules.cel.example.com')).json.spec.versions[0].schema.openAPIV3Schema.properties.spec;

  it('v1.23 defaults (gate off): a create drops them silently', async () => {
    c = await startTestServer();
    const r = await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict', crd);
    expect(r.status).toBe(201);
    expect(r.json.spec.versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations']).toBeUndefined();
    expect(await storedSpecSchema(c)).toEqual({ type: 'object', properties: { a: { type: 'integer' } } });
  });

  it('with --feature-gates CustomResourceValidationExpressions=true they are kept', async () => {
    c = await startTestServer({ featureGates: 'CustomResourceValidationExpressions=true' });
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    expect((await storedSpecSchema(c))['x-kubernetes-validations']).toEqual(rule);
  });
});
