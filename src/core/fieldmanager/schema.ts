// The schema adapter: turns our OpenAPI data (built-in definitions, CRD openAPIV3Schema, or no
// schema at all) into the few type shapes structured-merge-diff reasons about. Conversion rules
// follow kube-openapi's schemaconv as used by kube-apiserver v1.23:
// - x-kubernetes-list-type atomic/set/map (+ list-map-keys); when missing, patch strategy
//   `merge` means a map keyed by the patch merge key (a set for primitive lists), else atomic;
// - x-kubernetes-map-type atomic/granular (structs and maps default to granular);
// - objects without properties or additionalProperties, and preserve-unknown-fields, are
//   "deduced": maps granular, lists atomic, like unstructured objects;
// - int-or-string, Quantity and Time are plain scalars.
import { definitions as builtinDefinitions, refName, type SchemaNode } from '../schema/index';
import type { JsonValue } from './value';
import { emptyMap } from '../codec/own-keys';

export type TypeNode = ScalarType | ListType | MapType | DeducedType;

export interface ScalarType {
  readonly kind: 'scalar';
  /** What an applied value must be (kube-openapi's schemaconv); absent = untyped (int-or-string, Quantity). */
  readonly value?: 'string' | 'numeric' | 'boolean';
}

export interface ListType {
  readonly kind: 'list';
  readonly rel: 'atomic' | 'set' | 'map';
  readonly keys: readonly string[];
  /** Values used for missing key fields (kube defaults `protocol` of port lists to TCP). */
  readonly keyDefaults: Readonly<Record<string, JsonValue>>;
  elem(): TypeNode;
}

export interface MapType {
  readonly kind: 'map';
  readonly atomic: boolean;
  /** The declared field's type; undefined for undeclared keys. */
  field(name: string): TypeNode | undefined;
  /** The type of undeclared keys (additionalProperties, or deduced when unknown keys are kept). */
  elem(): TypeNode | undefined;
}

/** Untyped values: maps are granular (with deduced values), lists and scalars atomic. */
export interface DeducedType {
  readonly kind: 'deduced';
}

export type SchemaRoot = { definition: string } | { openAPIV3Schema: Record<string, unknown> } | { unstructured: true };

export const SCALAR: ScalarType = { kind: 'scalar' };
const TYPED_SCALARS: Record<string, ScalarType> = {
  string: { kind: 'scalar', value: 'string' },
  integer: { kind: 'scalar', value: 'numeric' },
  number: { kind: 'scalar', value: 'numeric' },
  boolean: { kind: 'scalar', value: 'boolean' },
};
/** schemaconv serves Quantity untyped: `cpu: 1` and `cpu: "1"` both apply. */
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const DEDUCED: DeducedType = { kind: 'deduced' };

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

type Node = SchemaNode & { default?: JsonValue };

/** Converts schema nodes lazily: definitions are recursive (JSONSchemaProps) and large. */
class Converter {
  private readonly byDefinition = new Map<string, TypeNode>();
  constructor(
    private readonly defs: Record<string, SchemaNode>,
    /** Built-in definitions apply patch-strategy fallbacks; CRD schemas do not. */
    private readonly builtin: boolean,
  ) {}

  definition(name: string): TypeNode {
    let t = this.byDefinition.get(name);
    if (!t) {
      const node = this.defs[name];
      if (!node) throw new Error(`unknown schema definition ${name}`);
      // Fields and list items convert lazily, so recursive definitions terminate here.
      t = name === QUANTITY ? SCALAR : this.convert(node);
      this.byDefinition.set(name, t);
    }
    return t;
  }

  convert(node: Node, overrideProps?: Record<string, TypeNode>): TypeNode {
    const ref = refName(node);
    if (ref !== undefined) return this.definition(ref);
    if (node['x-kubernetes-int-or-string'] || node.format === 'int-or-string') return SCALAR;
    if (node.type === 'array' || node.items) return this.list(node);
    const props = node.properties;
    const addl = node.additionalProperties;
    const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
    if (node.type === 'object' || props || addl !== undefined || preserve) {
      if (!props && (addl === undefined || addl === false || addl === true) && !overrideProps) return DEDUCED;
      // kube publishes an embedded resource with apiVersion, kind and metadata, declared or not.
      if (!overrideProps && node['x-kubernetes-embedded-resource'] === true) return this.map(node, implicitResourceFields());
      return this.map(node, overrideProps);
    }
    return (typeof node.type === 'string' && Object.hasOwn(TYPED_SCALARS, node.type) && TYPED_SCALARS[node.type]) || SCALAR;
  }

  private list(node: Node): ListType {
    const items = (node.items ?? {}) as Node;
    let rel = node['x-kubernetes-list-type'] as ListType['rel'] | undefined;
    let keys = (node['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
    if (!rel && this.builtin && String(node['x-kubernetes-patch-strategy'] ?? '').split(',').includes('merge')) {
      const mergeKey = node['x-kubernetes-patch-merge-key'];
      if (typeof mergeKey === 'string' && mergeKey) {
        rel = 'map';
        keys = [mergeKey];
      } else rel = 'set';
    }
    if (rel !== 'map' && rel !== 'set') rel = 'atomic';
    const keyDefaults: Record<string, JsonValue> = emptyMap();
    if (rel === 'map') {
      const itemProps = this.resolve(items).properties as Record<string, Node> | undefined;
      for (const k of keys) {
        const d = itemProps && Object.hasOwn(itemProps, k) ? itemProps[k]?.default : undefined;
        if (d !== undefined) keyDefaults[k] = d;
        // kube-apiserver defaults port protocols to TCP before keys are compared.
        else if (this.builtin && k === 'protocol') keyDefaults[k] = 'TCP';
      }
    }
    let elem: TypeNode | undefined;
    return { kind: 'list', rel, keys: rel === 'map' ? keys : [], keyDefaults, elem: () => (elem ??= this.convert(items)) };
  }

  private map(node: Node, overrideProps?: Record<string, TypeNode>): MapType {
    const props = (node.properties ?? {}) as Record<string, Node>;
    const fields = new Map<string, TypeNode>();
    const addl = node.additionalProperties;
    let elem: TypeNode | undefined;
    const open = node['x-kubernetes-preserve-unknown-fields'] === true || addl === true;
    return {
      kind: 'map',
      atomic: node['x-kubernetes-map-type'] === 'atomic',
      elem: () => {
        if (elem === undefined && typeof addl === 'object' && addl !== null) elem = this.convert(addl as Node);
        return elem ?? (open ? DEDUCED : undefined);
      },
      field: (name) => {
        if (overrideProps && Object.hasOwn(overrideProps, name)) return overrideProps[name];
        let t = fields.get(name);
        if (!t) {
          const p = Object.prototype.hasOwnProperty.call(props, name) ? props[name] : undefined;
          if (!p) return undefined;
          t = this.convert(p);
          fields.set(name, t);
        }
        return t;
      },
    };
  }

  private resolve(node: Node): Node {
    const ref = refName(node);
    return ref !== undefined ? ((this.defs[ref] ?? {}) as Node) : node;
  }
}

const builtinConverter = new Converter(builtinDefinitions, true);
const crdCache = new WeakMap<object, TypeNode>();

/** The fields every custom resource (and embedded resource) has, whatever its schema says. */
function implicitResourceFields(): Record<string, TypeNode> {
  return { apiVersion: TYPED_SCALARS.string!, kind: TYPED_SCALARS.string!, metadata: builtinConverter.definition(OBJECT_META) };
}

/** The root type for a schema root (cached: CRD roots per schema object identity). */
export function rootType(root: SchemaRoot): TypeNode {
  if ('definition' in root) return builtinConverter.definition(root.definition);
  if ('unstructured' in root) return DEDUCED;
  let t = crdCache.get(root.openAPIV3Schema);
  if (!t) {
    // CRD schemas may leave metadata open, or out; kube publishes every CRD's schema with
    // apiVersion, kind and a real ObjectMeta, and types applied configurations against that.
    const conv = new Converter({}, false);
    t = conv.convert(root.openAPIV3Schema as Node, implicitResourceFields());
    if (t.kind !== 'map') t = conv.convert({ type: 'object', properties: {} }, implicitResourceFields());
    crdCache.set(root.openAPIV3Schema, t);
  }
  return t;
}

// Go API structs embed these struct fields by value, so an empty Go object already has them as
// `{}`; required fields have no omitempty and are `null` there. kube compares against that empty
// object on create, which decides where the `.` markers of Update entries go.
const VALUE_STRUCT_FIELDS = ['metadata', 'spec', 'status', 'template', 'strategy', 'updateStrategy', 'jobTemplate'];

/** The empty object kube starts from for built-in kinds (value structs `{}`, required fields null). */
export function emptyObject(root: SchemaRoot): Record<string, unknown> {
  if ('definition' in root) return (skeletons[root.definition] ??= skeleton(builtinDefinitions[root.definition], 0));
  return {};
}

const skeletons: Record<string, Record<string, unknown>> = {};

function skeleton(node: SchemaNode | undefined, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!node?.properties || depth > 6) return out;
  for (const name of node.required ?? []) if (name in node.properties) out[name] = null;
  for (const name of VALUE_STRUCT_FIELDS) {
    const prop = node.properties[name];
    const ref = prop && refName(prop);
    const target = ref !== undefined ? builtinDefinitions[ref] : undefined;
    if (target?.properties && target['x-kubernetes-map-type'] !== 'atomic') out[name] = skeleton(target, depth + 1);
  }
  return out;
}
