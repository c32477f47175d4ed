// Walks a request body (as an ordered JSON node tree, so repeated keys are visible) against a
// schema, collecting unknown and duplicate fields with kube's paths (`spec.containers[0].x`) and
// building the value with unknown fields dropped, as decoding into typed structs (or CRD pruning)
// does.
import { compareUtf8, nodeToValue, type JsonNode } from '../../codec/json-scan';
import { FALLBACK_OBJECT_META } from './objectmeta';
import { OBJECT_META_DEFINITION, type SchemaContext, type SchemaNode } from './types';
import { sortInPlace } from '../../codec/sort-in-place';
import { setOwnKey as setKey } from '../../codec/own-keys';

export interface FieldIssue {
  kind: 'unknown' | 'duplicate';
  path: string;
  /** Which phase of the CR handler reports it (ordering only). */
  phase: 'body' | 'metadata' | 'prune' | 'embedded';
}

/** Anything goes below this node (free-form objects, preserve-unknown-fields). */
const ANY: SchemaNode = { 'x-kubernetes-preserve-unknown-fields': true };

const child = (path: string, key: string) => (path ? `${path}.${key}` : key);

export class FieldWalker {
  readonly issues: FieldIssue[] = [];
  constructor(private readonly ctx: SchemaContext) {}

  resolve(s: SchemaNode | undefined): SchemaNode | undefined {
    if (!s) return s;
    const defs = this.ctx.definitions;
    if (!defs) return this.follow(s);
    // Every object of every body resolves its schema: the answer is fixed per definitions.
    let cache = resolvedSchemas.get(defs);
    if (!cache) resolvedSchemas.set(defs, (cache = new WeakMap()));
    if (cache.has(s)) return cache.get(s);
    const r = this.follow(s);
    cache.set(s, r);
    return r;
  }

  private follow(s: SchemaNode | undefined): SchemaNode | undefined {
    let cur = s;
    for (let guard = 0; cur && guard < 32; guard++) {
      if (cur.$ref) {
        const name = refName(cur.$ref);
        cur = this.ctx.definitions?.[name];
        continue;
      }
      // OpenAPI v3 wraps references as allOf: [{$ref}] to attach a description.
      if (!cur.properties && !cur.items && cur.allOf?.length === 1 && cur.allOf[0].$ref) {
        cur = cur.allOf[0];
        continue;
      }
      return cur;
    }
    return cur;
  }

  root(): SchemaNode | undefined {
    const r = this.ctx.root;
    return typeof r === 'string' ? this.ctx.definitions?.[r] : r;
  }

  private objectMeta(): SchemaNode {
    return this.ctx.definitions?.[OBJECT_META_DEFINITION] ?? FALLBACK_OBJECT_META;
  }

  /** Walk the whole body; returns the value without unknown fields. */
  walkRoot(node: JsonNode): unknown {
    return this.walk(node, this.root(), '', 'body', this.ctx.custom === true);
  }

  private report(kind: FieldIssue['kind'], path: string, phase: FieldIssue['phase']): void {
    this.issues.push({ kind, path, phase });
  }

  /**
   * Walk an already-decoded value (no repeated keys possible) as `walkRoot` walks its node tree
   * with keys sorted like Go's json.Marshal, without building that tree first: the common
   * JSON body takes this path on every create and update. The value is the caller's own fresh
   * decode, so it is fixed in place: an object is rebuilt only when its keys are out of order or
   * one is unknown, and a field's path is spelled out only when there is something to report.
   */
  walkValueRoot(value: unknown): unknown {
    this.segments = [];
    return this.walkValue(value, this.root(), 'body', this.ctx.custom === true);
  }

  /** The path of the value being walked by walkValue, one segment per level: a key or an index. */
  private segments: Array<string | number> = [];

  private segmentsPath(key: string): string {
    let path = '';
    for (const seg of this.segments) path = typeof seg === 'number' ? `${path}[${seg}]` : child(path, seg);
    return child(path, key);
  }

  private walk(node: JsonNode, schemaIn: SchemaNode | undefined, path: string, phase: FieldIssue['phase'], resourceRoot: boolean): unknown {
    if (node.kind === 'scalar') return node.value;
    const schema = this.resolve(schemaIn);
    if (node.kind === 'array') {
      const items = itemsSchema(schema);
      return node.items.map((n, i) => this.walk(n, items, `${path}[${i}]`, phase, false));
    }
    const fields = this.fields(schema, resourceRoot, phase);
    const out: Record<string, unknown> = {};
    for (const e of node.entries) {
      const p = child(path, e.key);
      const f = this.fieldSchema(fields, e.key);
      if (!f) {
        // Typed decoding reports a repeated unknown field once, as unknown; the CR handler's
        // JSON pass reports it as a duplicate too.
        if (e.duplicate && fields.custom) this.report('duplicate', p, 'body');
        this.report('unknown', p, fields.custom && phase === 'body' ? 'prune' : phase);
        continue;
      }
      if (e.duplicate) this.report('duplicate', p, 'body');
      setKey(out, e.key, this.walk(e.value, f, p, fieldPhase(fields, e.key, phase, resourceRoot), false));
    }
    return out;
  }

  private walkValue(value: unknown, schemaIn: SchemaNode | undefined, phase: FieldIssue['phase'], resourceRoot: boolean): unknown {
    if (value === null || typeof value !== 'object') return value;
    const schema = this.resolve(schemaIn);
    if (Array.isArray(value)) {
      const items = itemsSchema(schema);
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === null || typeof item !== 'object') continue;
        this.segments.push(i);
        const walked = this.walkValue(item, items, phase, false);
        this.segments.pop();
        if (walked !== item) value[i] = walked;
      }
      return value;
    }
    const fields = this.fields(schema, resourceRoot, phase);
    const record = value as Record<string, unknown>;
    // Kept as it is while all its keys are known and, for a map or a custom object (a Go map
    // when kube marshals it), come sorted. A built-in struct keeps the client's order here: the
    // stored-text writer puts it in Go's field order (registry/go-order.ts).
    const sorted = fields.custom || !fields.props || fields.addl !== undefined;
    let keep = true;
    let previous: string | undefined;
    for (const key in record) {
      if ((sorted && previous !== undefined && compareUtf8(previous, key) > 0) || !this.fieldSchema(fields, key)) {
        keep = false;
        break;
      }
      previous = key;
    }
    const out: Record<string, unknown> = keep ? record : {};
    for (const key of keep ? Object.keys(record) : sortedKeys(record)) {
      const f = this.fieldSchema(fields, key);
      if (!f) {
        this.report('unknown', this.segmentsPath(key), fields.custom && phase === 'body' ? 'prune' : phase);
        continue;
      }
      const item = record[key];
      let walked = item;
      if (item !== null && typeof item === 'object') {
        this.segments.push(key);
        walked = this.walkValue(item, f, fieldPhase(fields, key, phase, resourceRoot), false);
        this.segments.pop();
      }
      if (!keep) setKey(out, key, walked);
      else if (walked !== item) setKey(record, key, walked);
    }
    return out;
  }

  /**
   * What an object node's schema allows, worked out once per object rather than per key, and
   * once per schema for a built-in kind's nested objects (the same answer on every body).
   */
  private fields(schema: SchemaNode | undefined, resourceRoot: boolean, phase: FieldIssue['phase']): ObjectFields {
    // A custom object's metadata decodes as the typed ObjectMeta (kube's schemaobjectmeta), so
    // typed rules hold below it: managedFields' fieldsV1 is free-form, not pruned.
    const custom = this.ctx.custom === true && phase !== 'metadata' && phase !== 'embedded';
    if (custom || resourceRoot || !schema) return objectFields(schema, custom, resourceRoot);
    let known = typedFields.get(schema);
    if (!known) typedFields.set(schema, (known = objectFields(schema, false, false)));
    return known;
  }

  /** The schema for one key of an object; undefined for an unknown field. */
  private fieldSchema(f: ObjectFields, key: string): SchemaNode | undefined {
    if (f.custom && f.embedded && (key === 'apiVersion' || key === 'kind')) return STRING;
    if (f.custom && f.embedded && key === 'metadata') return this.objectMeta();
    if (f.props && Object.prototype.hasOwnProperty.call(f.props, key)) return f.props[key]!;
    if (f.addl) return f.addl;
    if (f.freeForm) return ANY;
    return undefined;
  }
}

/** The reporting phase below one (known) key of an object. */
function fieldPhase(f: ObjectFields, key: string, phase: FieldIssue['phase'], resourceRoot: boolean): FieldIssue['phase'] {
  if (f.custom && f.embedded && key === 'metadata') return resourceRoot ? 'metadata' : 'embedded';
  return phase;
}

/** Resolved schemas by node, per definitions (fixed at build time; a CRD's come with its own). */
const resolvedSchemas = new WeakMap<object, WeakMap<SchemaNode, SchemaNode | undefined>>();
/** A built-in kind's nested objects' fields by schema node: the same for every body. */
const typedFields = new WeakMap<SchemaNode, ObjectFields>();

function objectFields(schema: SchemaNode | undefined, custom: boolean, resourceRoot: boolean): ObjectFields {
  const preserve = !schema || schema['x-kubernetes-preserve-unknown-fields'] === true;
  const props = schema?.properties;
  const addl = schema?.additionalProperties;
  return {
    custom,
    props,
    addl: addl && typeof addl === 'object' ? addl : undefined,
    // Typed kinds treat an object schema without fields as free-form (RawExtension, FieldsV1);
    // structural CRD schemas prune everything below a bare `type: object`.
    freeForm: preserve || addl === true || (!custom && !props && addl === undefined),
    embedded: resourceRoot || schema?.['x-kubernetes-embedded-resource'] === true,
  };
}

interface ObjectFields {
  custom: boolean;
  props: Record<string, SchemaNode> | undefined;
  addl: SchemaNode | undefined;
  freeForm: boolean;
  embedded: boolean;
}

const STRING: SchemaNode = { type: 'string' };

/** Definition names by $ref: resolved for every object field of every body, so parsed once. */
const refNames = new Map<string, string>();

export function refName(ref: string): string {
  let name = refNames.get(ref);
  if (name === undefined) {
    name = ref.replace(/^#\/(definitions|components\/schemas)\//, '');
    refNames.set(ref, name);
  }
  return name;
}

function itemsSchema(schema: SchemaNode | undefined): SchemaNode {
  return (schema && schema !== ANY && !schema['x-kubernetes-preserve-unknown-fields'] ? schema.items : ANY) ?? ANY;
}

/** Go's json.Marshal order for map keys (bytewise), as valueToNode(value, true) sorts them. */
function sortedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  return keys.length > 1 ? sortInPlace(keys, compareUtf8) : keys;
}

/** A JSON node's plain value, for callers that skip validation. */
export { nodeToValue };
