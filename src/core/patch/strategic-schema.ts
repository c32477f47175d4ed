// Patch metadata for strategic merge patch, read from the built-in OpenAPI definitions instead of
// Go struct tags: `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` sit on the
// property that holds the map or list (the OpenAPI data is generated from those same tags).
// Unknown fields are looked up leniently (no strategy) where Go would fail: our stored objects
// are not round-tripped through Go structs, so they may carry fields the schema does not know.
import { definitions, resolveRef, type SchemaNode } from '../schema';
import { internalPatchError } from './strategic-errors';

/** The (resolved) schema of the value being patched; undefined when unknown or free-form. */
export type PatchSchema = SchemaNode | undefined;

export interface FieldPatchMeta {
  /** For a map field: the field's schema. For a list field: the schema of its elements. */
  schema: PatchSchema;
  /** The strategy without `retainKeys`: 'merge', 'replace' or '' (default: merge maps, replace lists). */
  strategy: string;
  mergeKey: string;
}

export const DIRECTIVE_MARKER = '$patch';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** True for keys that only carry patch instructions and must never end up in an object. */
export function isDirectiveKey(key: string): boolean {
  return (
    key === DIRECTIVE_MARKER ||
    key === RETAIN_KEYS_DIRECTIVE ||
    key.startsWith(`${DELETE_FROM_PRIMITIVE_LIST_PREFIX}/`) ||
    key.startsWith(`${SET_ELEMENT_ORDER_PREFIX}/`)
  );
}

/** The schema of a top-level kind, e.g. `io.k8s.api.apps.v1.Deployment`. */
export function rootSchema(definition: string): SchemaNode {
  const node = definitions[definition];
  if (!node) throw new Error(`unknown schema definition ${definition}`);
  return resolveRef(node);
}

function resolve(node: SchemaNode | undefined): PatchSchema {
  return node ? resolveRef(node) : undefined;
}

/** A struct (has named properties), as opposed to a map or a free-form object. */
export function isStruct(schema: PatchSchema): boolean {
  return !!schema && !!schema.properties;
}

/** The unresolved node of `key` inside an object: a struct property or a map's value schema. */
function propertyNode(schema: PatchSchema, key: string): SchemaNode | undefined {
  if (!schema) return undefined;
  if (schema.properties) return Object.hasOwn(schema.properties, key) ? schema.properties[key] : undefined;
  if (typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  return undefined;
}

export function childSchema(schema: PatchSchema, key: string): PatchSchema {
  return resolve(propertyNode(schema, key));
}

export function itemSchema(schema: PatchSchema): PatchSchema {
  return schema?.items ? resolve(schema.items) : undefined;
}

/** extractRetainKeysPatchStrategy: `merge,retainKeys` → 'merge'; retainKeys alone → ''. */
function strategyOf(node: SchemaNode | undefined): string {
  const raw = node?.['x-kubernetes-patch-strategy'];
  const strategies = typeof raw === 'string' && raw ? raw.split(',') : [];
  switch (strategies.length) {
    case 0:
      return '';
    case 1:
      return strategies[0] === 'retainKeys' ? '' : strategies[0];
    case 2:
      if (strategies[0] === 'retainKeys') return strategies[1];
      if (strategies[1] === 'retainKeys') return strategies[0];
  }
  throw internalPatchError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

function mergeKeyOf(node: SchemaNode | undefined): string {
  const key = node?.['x-kubernetes-patch-merge-key'];
  return typeof key === 'string' ? key : '';
}

/** LookupPatchMetadataForStruct: how to patch the map held in `key`. */
export function lookupMapField(schema: PatchSchema, key: string): FieldPatchMeta {
  const node = propertyNode(schema, key);
  return { schema: resolve(node), strategy: strategyOf(node), mergeKey: mergeKeyOf(node) };
}

/** LookupPatchMetadataForSlice: how to patch the list held in `key` (schema = element schema). */
export function lookupListField(schema: PatchSchema, key: string): FieldPatchMeta {
  const node = propertyNode(schema, key);
  return { schema: itemSchema(resolve(node)), strategy: strategyOf(node), mergeKey: mergeKeyOf(node) };
}
