import { describe, expect, it } from 'vitest';
import type { ResourceInfo } from './resource-info';
import { customKindSchemaV2 } from './custom-schema-v2';

const widgets: ResourceInfo = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: [],
  categories: [],
  subresources: [],
  custom: true,
};
const GVK = [{ group: 'example.com', kind: 'Widget', version: 'v1' }];
const META = { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };

describe('customKindSchemaV2 (the CRD OpenAPI controller with Options{V2: true})', () => {
  it('adds apiVersion, kind, metadata and the GVK; keeps descriptions, validations and x-kubernetes extensions', () => {
    const out = customKindSchemaV2(widgets, {
      type: 'object',
      description: 'A widget.',
      properties: {
        spec: {
          type: 'object',
          required: ['size'],
          properties: {
            size: { type: 'integer', format: 'int32', minimum: 1, maximum: 10, default: 3, description: 'How big.' },
            color: { type: 'string', enum: ['red', 'blue'], pattern: '^[a-z]+$' },
            ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
          },
        },
      },
    });
    expect(out).toEqual({
      description: 'A widget.',
      type: 'object',
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        metadata: META,
        spec: {
          type: 'object',
          required: ['size'],
          properties: {
            color: { type: 'string', pattern: '^[a-z]+$', enum: ['red', 'blue'] },
            ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } }, 'x-kubernetes-list-map-keys': ['name'], 'x-kubernetes-list-type': 'map' },
            size: { description: 'How big.', type: 'integer', format: 'int32', default: 3, maximum: 10, minimum: 1 },
          },
        },
      },
      'x-kubernetes-group-version-kind': GVK,
    });
    expect(Object.keys(out)).toEqual(['description', 'type', 'properties', 'x-kubernetes-group-version-kind']);
  });

  it('drops what v2 cannot say: junctors, nullable (and its requiredness), v3-only keys', () => {
    const out = customKindSchemaV2(widgets, {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          required: ['a', 'b'],
          properties: {
            a: { type: 'string', nullable: true },
            b: { type: 'object', properties: { x: { type: 'string' } }, oneOf: [{ required: ['x'] }], anyOf: [{ required: ['x'] }], not: { required: ['y'] }, allOf: [{}] },
            c: { type: 'object', nullable: true, properties: { x: { type: 'string' } } },
            d: { type: 'string', example: 'e', externalDocs: { url: 'u' } },
          },
        },
        m: { type: 'object', required: ['k'], additionalProperties: { type: 'string', nullable: true } },
      },
    }) as any;
    expect(out.properties.spec.required).toEqual(['b']);
    expect(out.properties.spec.properties.a).toEqual({});
    expect(out.properties.spec.properties.b).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
    expect(out.properties.spec.properties.c).toEqual({});
    expect(out.properties.spec.properties.d).toEqual({ type: 'string' });
    expect(out.properties.m).toEqual({ type: 'object', additionalProperties: {} });
  });

  it('opens nodes that keep unknown fields, and arrays left without items', () => {
    const out = customKindSchemaV2(widgets, {
      type: 'object',
      properties: {
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'string' } } },
        list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'string' } },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      },
    }) as any;
    expect(out.properties.free).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(out.properties.list).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(out.properties.port).toEqual({ 'x-kubernetes-int-or-string': true });
  });

  it('gives an embedded resource apiVersion, kind and metadata, unless it keeps unknown fields', () => {
    const out = customKindSchemaV2(widgets, {
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
        open: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    }) as any;
    expect(out.properties.template).toEqual({
      type: 'object',
      required: ['kind', 'apiVersion'],
      properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: META, spec: { type: 'object' } },
      'x-kubernetes-embedded-resource': true,
    });
    expect(out.properties.open).toEqual({ 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
  });

  it('without a schema, or one keeping unknown fields at the root, is an open object with only the GVK', () => {
    expect(customKindSchemaV2(widgets, undefined)).toEqual({ type: 'object', 'x-kubernetes-group-version-kind': GVK });
    expect(customKindSchemaV2(widgets, { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } })).toEqual({
      type: 'object',
      'x-kubernetes-group-version-kind': GVK,
    });
  });

  it('is safe for any property name', () => {
    const out = customKindSchemaV2(widgets, { type: 'object', properties: JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}') }) as any;
    expect(Object.prototype.hasOwnProperty.call(out.properties, '__proto__')).toBe(true);
    expect(out.properties.constructor).toEqual({ type: 'integer' });
    expect(({} as any).type).toBeUndefined();
  });
});
