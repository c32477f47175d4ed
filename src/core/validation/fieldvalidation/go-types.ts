// The JSON type errors kube-apiserver's decoder gives a built-in kind's body: Go's encoding/json
// cannot put a value of the wrong JSON type into a typed field, and reports the first such value
// (in document order) as
//   json: cannot unmarshal <bool|string|number|object|array> into Go struct field
//   <Struct>.<field.path> of type <Go type>
// where Struct is the innermost struct holding the field and the path lists JSON field names
// from the root (no list indices, no map keys). A few types decode themselves and say so in their
// own words (quantities, int-or-string, times: Go's time parser), and []byte fields are base64
// (Go's base64 error). null is never an error: Go leaves the zero value.
//
// The Go type names come from the OpenAPI definitions: `v1.Container`, `[]v1.Container`,
// `map[string]string`, `int32`. Named string types (`v1.PullPolicy`, map keys such as
// `v1.ResourceName`) are not in the OpenAPI data; they read as `string`.
import type { SchemaContext, SchemaNode } from './types';
import { refName } from './walker';
import { parseGoTime, RFC3339, RFC3339_MICRO } from '../../codec/go-time';
import { decodeBase64 } from '../base64';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';
/** The layout each time type's UnmarshalJSON parses with (MicroTime: exactly six fractional digits). */
const TIMES = new Map<string, typeof RFC3339 | typeof RFC3339_MICRO>([
  ['io.k8s.apimachinery.pkg.apis.meta.v1.Time', RFC3339],
  ['io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', RFC3339_MICRO],
]);
const QUANTITY_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const INT_RANGE: Record<string, [number, number]> = { int32: [-(2 ** 31), 2 ** 31 - 1], int64: [-(2 ** 63), 2 ** 63 - 1], int: [-(2 ** 63), 2 ** 63 - 1] };

interface Resolved {
  schema: SchemaNode | undefined;
  /** The definition the schema came from, when it came by $ref. */
  definition?: string;
  /** The Go struct's own name (the definition's last segment), for fields read below it. */
  struct?: string;
}

/** The first mistyped value ends the walk: Go's decoder reports only the first. */
class Found extends Error {}

/** Resolved schemas by node, shared by every checker: definitions are fixed at build time. */
const resolvedCache = new WeakMap<object, WeakMap<SchemaNode, Resolved>>();

export class GoTypeChecker {
  private readonly resolved: WeakMap<SchemaNode, Resolved>;
  /** JSON field names from the root to the value being checked (no indices, no map keys). */
  private readonly path: string[] = [];

  constructor(private readonly ctx: SchemaContext) {
    const defs = (ctx.definitions ?? ctx) as object;
    let cache = resolvedCache.get(defs);
    if (!cache) resolvedCache.set(defs, (cache = new WeakMap()));
    this.resolved = cache;
  }

  /** The decoder's error text for the first mistyped value, or undefined when every value fits. */
  firstError(value: unknown): string | undefined {
    const root = this.ctx.root;
    if (typeof root !== 'string') return undefined;
    this.path.length = 0;
    try {
      this.object(value, { schema: this.ctx.definitions?.[root], definition: root, struct: structName(root) });
      return undefined;
    } catch (e) {
      if (e instanceof Found) return e.message;
      throw e;
    }
  }

  private resolve(s: SchemaNode): Resolved {
    let r = this.resolved.get(s);
    if (r) return r;
    let cur: SchemaNode | undefined = s;
    let definition: string | undefined;
    for (let guard = 0; cur && guard < 32; guard++) {
      if (cur.$ref) {
        definition = refName(cur.$ref);
        cur = this.ctx.definitions?.[definition];
      } else if (!cur.properties && !cur.items && cur.allOf?.length === 1) {
        cur = cur.allOf[0];
      } else break;
    }
    r = { schema: cur, definition, struct: definition ? structName(definition) : '' };
    this.resolved.set(s, r);
    return r;
  }

  /** The fields of a struct-typed object (the root, or a field's value). */
  private object(value: unknown, r: Resolved): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const props = r.schema?.properties;
    if (!props) return;
    const record = value as Record<string, unknown>;
    for (const key in record) {
      const prop = Object.hasOwn(props, key) ? props[key] : undefined;
      if (!prop) continue;
      this.path.push(key);
      this.value(record[key], prop, r.struct ?? '');
      this.path.pop();
    }
  }

  private fail(what: string, struct: string, s: SchemaNode): never {
    throw new Found(`json: cannot unmarshal ${what} into Go struct field ${struct}.${this.path.join('.')} of type ${this.goType(s)}`);
  }

  /** A value for the field at `path` of `struct`, declared by `s` (also list items and map values). */
  private value(v: unknown, s: SchemaNode, struct: string): void {
    if (v === null || v === undefined) return;
    const r = this.resolve(s);
    const schema = r.schema;
    if (!schema) return;
    if (r.definition !== undefined) {
      if (r.definition === QUANTITY) {
        if (typeof v !== 'string' && typeof v !== 'number') throw new Found(QUANTITY_ERROR);
        return;
      }
      if (r.definition === INT_OR_STRING) {
        if (typeof v === 'string') return;
        if (typeof v !== 'number') throw new Found(`json: cannot unmarshal ${jsonKind(v)} into Go value of type int32`);
        if (!fitsInt(v, 'int32')) throw new Found(`json: cannot unmarshal number ${v} into Go value of type int32`);
        return;
      }
      const layout = TIMES.get(r.definition);
      if (layout) {
        if (typeof v !== 'string') throw new Found(`json: cannot unmarshal ${jsonKind(v)} into Go value of type string`);
        const parsed = parseGoTime(layout, v);
        if ('error' in parsed) throw new Found(parsed.error);
        return;
      }
    }
    const type = schema.type;
    if (typeof type !== 'string' || schema['x-kubernetes-int-or-string'] || schema['x-kubernetes-preserve-unknown-fields']) return;
    switch (type) {
      case 'string':
        if (typeof v !== 'string') this.fail(jsonKind(v), struct, s);
        // []byte: base64 text, or base64's own error (`illegal base64 data at input byte N`).
        if (schema.format === 'byte') {
          const bytes = decodeBase64(v as string);
          if (bytes.error) throw new Found(bytes.error);
        }
        return;
      case 'boolean':
        if (typeof v !== 'boolean') this.fail(jsonKind(v), struct, s);
        return;
      case 'number':
        if (typeof v !== 'number') this.fail(jsonKind(v), struct, s);
        return;
      case 'integer':
        if (typeof v !== 'number') this.fail(jsonKind(v), struct, s);
        if (!fitsInt(v as number, intType(schema))) this.fail(`number ${v}`, struct, s);
        return;
      case 'array': {
        if (!Array.isArray(v)) this.fail(jsonKind(v), struct, s);
        const items = schema.items;
        if (items) for (const item of v as unknown[]) this.value(item, items, struct);
        return;
      }
      case 'object': {
        if (typeof v !== 'object' || Array.isArray(v)) this.fail(jsonKind(v), struct, s);
        if (schema.properties) return this.object(v, r);
        const addl = schema.additionalProperties;
        if (addl && typeof addl === 'object') {
          const record = v as Record<string, unknown>;
          for (const key in record) this.value(record[key], addl, struct);
        }
        return;
      }
    }
  }

  /** Go's name for the type a schema declares. */
  private goType(s: SchemaNode | undefined): string {
    if (!s) return 'interface {}';
    const r = this.resolve(s);
    const schema = r.schema;
    if (r.definition === QUANTITY) return 'resource.Quantity';
    if (r.definition === INT_OR_STRING) return 'intstr.IntOrString';
    if (schema?.type === 'array') return `[]${this.goType(schema.items)}`;
    if (schema?.type === 'object' && !schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      return `map[string]${this.goType(schema.additionalProperties)}`;
    }
    if (r.definition) {
      const parts = r.definition.split('.');
      return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
    }
    switch (schema?.type) {
      case 'string':
        return schema.format === 'byte' ? '[]uint8' : 'string';
      case 'boolean':
        return 'bool';
      case 'number':
        return 'float64';
      case 'integer':
        return intType(schema);
      default:
        return 'interface {}';
    }
  }
}

/** A definition's Go struct name: its last segment (`io.k8s.api.core.v1.Container` → `Container`). */
function structName(definition: string): string {
  return definition.slice(definition.lastIndexOf('.') + 1);
}

function intType(s: SchemaNode): string {
  return s.format === 'int32' ? 'int32' : s.format === 'int64' ? 'int64' : 'int';
}

function fitsInt(v: number, type: string): boolean {
  const [lo, hi] = INT_RANGE[type] ?? INT_RANGE.int!;
  return Number.isInteger(v) && v >= lo && v <= hi;
}

/** How Go's decoder names a JSON value's kind. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const metaCheckers = new WeakMap<object, GoTypeChecker>();

/**
 * A custom object's metadata decodes into ObjectMeta on its own (the CR handler round-trips it
 * through JSON), so its first mistyped value reads `... Go struct field ObjectMeta.finalizers of
 * type []string`. undefined when it fits (or there is no metadata object to check).
 */
export function customMetadataTypeError(definitions: SchemaContext['definitions'], obj: unknown): string | undefined {
  const meta = obj && typeof obj === 'object' ? (obj as Record<string, unknown>).metadata : undefined;
  if (meta === undefined || meta === null || !definitions) return undefined;
  let checker = metaCheckers.get(definitions);
  if (!checker) metaCheckers.set(definitions, (checker = new GoTypeChecker({ definitions, root: OBJECT_META })));
  if (typeof meta !== 'object' || Array.isArray(meta)) return `json: cannot unmarshal ${jsonKind(meta)} into Go value of type v1.ObjectMeta`;
  return checker.firstError(meta);
}
