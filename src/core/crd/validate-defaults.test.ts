import { describe, expect, it } from 'vitest';
import { validateCrd } from './validate-crd';

const crd = (versions: unknown[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.com' },
  spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'gadgets', kind: 'Gadget' }, versions },
});
const version = (name: string, spec: Record<string, unknown>, storage = true) => ({
  name,
  served: true,
  storage,
  schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } },
});

describe('CRD default values', () => {
  it('accepts defaults that validate and carry no unknown fields', () => {
    const spec = { replicas: { type: 'integer', minimum: 0, default: 1 }, limits: { type: 'object', default: { cpu: '1' }, properties: { cpu: { type: 'string' } } }, tags: { type: 'array', items: { type: 'string', default: 'x' } } };
    expect(validateCrd(crd([version('v1', spec)]))).toEqual([]);
  });

  it('refuses a default of the wrong type or out of bounds, reported at the shared schema path', () => {
    const errs = validateCrd(crd([version('v1', { replicas: { type: 'integer', minimum: 0, default: 'two' }, size: { type: 'integer', minimum: 1, default: 0 } })]));
    expect(errs).toEqual([
      { type: 'FieldValueTypeInvalid', field: 'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default', value: 'string', detail: ' in body must be of type integer: "string"' },
      { type: 'FieldValueInvalid', field: 'spec.validation.openAPIV3Schema.properties[spec].properties[size].default', value: 0, detail: ' in body should be greater than or equal to 1' },
    ]);
  });

  it('refuses a default with fields its schema would prune, and checks fields inside object defaults', () => {
    const errs = validateCrd(crd([version('v1', {
      limits: { type: 'object', default: { cpu: '1', gpu: 2 }, properties: { cpu: { type: 'string' } } },
      ports: { type: 'object', default: { port: 'http' }, properties: { port: { type: 'integer' } } },
    })]));
    expect(errs.map((e) => [e.field, e.detail])).toEqual([
      ['spec.validation.openAPIV3Schema.properties[spec].properties[limits].default', 'must not have unknown fields'],
      ['spec.validation.openAPIV3Schema.properties[spec].properties[ports].default.port', 'port in body must be of type integer: "string"'],
    ]);
  });

  it('a list-map key must be required or defaulted', () => {
    const ports = (item: Record<string, unknown>) => ({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'protocol'], items: { type: 'object', ...item } });
    const props = { name: { type: 'string' }, protocol: { type: 'string' } };
    expect(validateCrd(crd([version('v1', { ports: ports({ required: ['name'], properties: props }) })]))).toEqual([
      { type: 'FieldValueRequired', field: 'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[protocol].default', detail: 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property' },
    ]);
    expect(validateCrd(crd([version('v1', { ports: ports({ required: ['name'], properties: { ...props, protocol: { type: 'string', default: 'TCP' } } }) })]))).toEqual([]);
  });

  it('reports per version when the versions have different schemas', () => {
    const errs = validateCrd(crd([version('v1', { a: { type: 'string', default: 1 } }), version('v2', { a: { type: 'string' } }, false)]));
    expect(errs.map((e) => e.field)).toEqual(['spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].default']);
    const root = validateCrd(crd([{ ...version('v1', {}), schema: { openAPIV3Schema: { type: 'string' } } }]));
    expect(root.map((e) => e.field)).toEqual(['spec.validation.openAPIV3Schema.type']);
  });
});
