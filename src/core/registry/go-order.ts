// Built-in objects as kube-apiserver writes them. It decodes every object into its Go struct and
// encodes it again with encoding/json, which
//   - writes a struct's fields in declaration order and a map's keys sorted bytewise:
//     `spec.replicas` before `spec.template` however the client ordered them, `labels` sorted;
//   - leaves out an `omitempty` field holding its zero value (`hostNetwork: false`, `""`);
//   - always writes a struct that is not a pointer, `omitempty` or not (structs are never
//     "empty" to encoding/json): a pod template's metadata gets `"creationTimestamp":null` (a
//     zero metav1.Time marshals as null), a Service `"status":{"loadBalancer":{}}`, an Event
//     `"source":{}`;
//   - writes the zero value of a field without `omitempty` that the client left out (`null` for
//     a nil list or map: an aggregated ClusterRole's `"rules":null`).
// Field order and pointer-ness come from the protobuf declarations (codec/protobuf/descriptors.ts:
// fields in Go struct order, nullable = pointer); `omitempty` is read off the OpenAPI schema, whose
// generator marks exactly the fields without omitempty (and without +optional) as required,
// plus the few optional lists Go declares without it (decoded-form.ts).
//
// Objects are copied where anything changes and shared where nothing does (an object decoded from
// protobuf, or read back from storage, costs one check per level).
import { K_BOOL, K_BYTES, K_INT32, K_INT64, K_MESSAGE, K_STRING, messageForKind, S_MICROTIME, S_NONE, S_STRING_LIST, S_TIME, type FieldDesc, type MessageDesc } from '../codec/protobuf/descriptors';
import { setOwnKey as put, withSortedKeys } from '../codec/own-keys';
import { definitions } from '../schema';
import { sortInPlace } from '../codec/sort-in-place';
import { KEPT_WHEN_EMPTY } from './decoded-form';

type Obj = Record<string, unknown>;

/** How encoding/json treats a field. */
const WRITE_AS_IS = 0;
/** omitempty on a value that can be empty: dropped when it is (or is null, Go's zero). */
const OMIT_EMPTY = 1;
/** A struct that is not a pointer: always written, its zero value when absent or null. */
const ALWAYS_STRUCT = 2;
/** No omitempty: always written, its zero value when absent or null. */
const ALWAYS = 3;

interface FieldPlan {
  at: number;
  desc: FieldDesc;
  mode: number;
  /** The value Go writes for the field's zero value (ALWAYS, ALWAYS_STRUCT). */
  zero?: (encode: boolean) => unknown;
  /** The zero value is written as `null` (a zero time, a nil list): see inGoOrder's `encode`. */
  nullZero?: boolean;
}

interface Plan {
  /** JSON keys in Go struct order, embedded structs flattened in place. */
  keys: readonly string[];
  fields: ReadonlyMap<string, FieldPlan>;
  /** Fields written even when absent, in key order. */
  always: readonly FieldPlan[];
}

const plans = new WeakMap<MessageDesc, Plan>();

/** The OpenAPI definition of a protobuf message: `k8s.io.api.core.v1.Pod` → `io.k8s.api.core.v1.Pod`. */
function requiredOf(desc: MessageDesc): { required: Set<string>; definition: string } {
  const definition = desc.name.startsWith('k8s.io.') ? `io.k8s.${desc.name.slice('k8s.io.'.length)}` : desc.name;
  return { required: new Set(definitions[definition]?.required ?? []), definition };
}

/** Whether encoding/json's omitempty leaves the value out: nil, or a non-pointer zero value. */
function isEmptyValue(f: FieldDesc, v: unknown): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (f.map) return typeof v === 'object' && !hasOwnKey(v as Obj);
  // A set pointer is never empty, whatever it points to; nor is a struct.
  if (f.pointer || f.kind === K_MESSAGE) return false;
  switch (f.kind) {
    case K_STRING:
    case K_BYTES:
      return v === '';
    case K_INT32:
    case K_INT64:
      return v === 0;
    case K_BOOL:
      return v === false;
  }
  return false;
}

/** Whether an object has an own key: the first one answers (no key list per emptiness test). */
function hasOwnKey(o: Obj): boolean {
  for (const k in o) if (Object.hasOwn(o, k)) return true;
  return false;
}

/**
 * Optional fields Go declares without omitempty (the OpenAPI schema cannot tell them from the
 * omitempty ones): written even when zero. The lists of this kind are in decoded-form.ts.
 */
const WRITTEN_WHEN_ZERO = new Set([
  'io.k8s.api.core.v1.Event.reportingComponent',
  'io.k8s.api.core.v1.Event.reportingInstance',
  'io.k8s.api.apps.v1.StatefulSetStatus.availableReplicas',
  ...['v1beta1', 'v1beta2'].flatMap((v) => [
    `io.k8s.api.flowcontrol.${v}.FlowSchemaSpec.matchingPrecedence`,
    `io.k8s.api.flowcontrol.${v}.LimitedPriorityLevelConfiguration.assuredConcurrencyShares`,
    `io.k8s.api.flowcontrol.${v}.QueuingConfiguration.queues`,
    `io.k8s.api.flowcontrol.${v}.QueuingConfiguration.handSize`,
    `io.k8s.api.flowcontrol.${v}.QueuingConfiguration.queueLengthLimit`,
  ]),
]);

function zeroOf(f: FieldDesc): ((encode: boolean) => unknown) | undefined {
  if (f.repeated || f.map || f.pointer || f.kind === K_BYTES) return () => null;
  switch (f.kind) {
    case K_STRING:
      return () => '';
    case K_INT32:
    case K_INT64:
      return () => 0;
    case K_BOOL:
      return () => false;
  }
  const m = f.message!;
  if (m.special === S_TIME || m.special === S_MICROTIME) return () => null;
  if (m.special === S_STRING_LIST) return () => null;
  if (m.special === S_NONE) return (encode) => zeroStruct(m, encode);
  // Quantities, int-or-strings, durations and raw extensions: written as the client sent them.
  return undefined;
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

function modeOf(owner: { required: Set<string>; definition: string }, f: FieldDesc): number {
  // An update's `managedFields: []` means "reset them" and must reach the field manager; the
  // stored-text writer (objects.ts) leaves an empty list out.
  if (f.inline || (owner.definition === OBJECT_META && f.json === 'managedFields')) return WRITE_AS_IS;
  const message = f.kind === K_MESSAGE && !f.repeated && !f.map ? f.message! : undefined;
  if (message && !f.pointer && (message.special === S_NONE || message.special === S_TIME || message.special === S_MICROTIME)) return ALWAYS_STRUCT;
  const name = `${owner.definition}.${f.json}`;
  const omitEmpty = !owner.required.has(f.json) && !KEPT_WHEN_EMPTY.has(name) && !WRITTEN_WHEN_ZERO.has(name);
  if (omitEmpty) return OMIT_EMPTY;
  return zeroOf(f) ? ALWAYS : WRITE_AS_IS;
}

function planOf(desc: MessageDesc): Plan {
  let plan = plans.get(desc);
  if (!plan) {
    const keys: string[] = [];
    const fields = new Map<string, FieldPlan>();
    const always: FieldPlan[] = [];
    const add = (d: MessageDesc) => {
      const owner = requiredOf(d);
      for (const f of d.fields) {
        if (f.inline) {
          add(f.message!);
          continue;
        }
        const mode = modeOf(owner, f);
        const field: FieldPlan = { at: keys.push(f.json) - 1, desc: f, mode };
        if (mode === ALWAYS || mode === ALWAYS_STRUCT) {
          field.zero = zeroOf(f);
          field.nullZero = field.zero?.(false) === null;
          always.push(field);
        }
        fields.set(f.json, field);
      }
    };
    add(desc);
    plan = { keys, fields, always };
    plans.set(desc, plan);
  }
  return plan;
}

/** A zero struct of this message, as encoding/json writes it (encode) or as held before that. */
function zeroStruct(desc: MessageDesc, encode: boolean): Obj {
  const out: Obj = {};
  for (const f of planOf(desc).always) if (encode || !f.nullZero) put(out, f.desc.json, f.zero!(encode));
  return out;
}

/**
 * A built-in object as Go would hold it after decoding, in place (kind and apiVersion name its
 * type; other objects are left alone): what defaulting hands on to admission, the field manager
 * and storage, so that they all see what kube's do. Zero values that encode as `null` (a zero
 * time, a nil list) are left out here, as kube's field manager leaves them out of the fields a
 * write owns; the stored-text writer puts them in.
 */
export function toGoForm(obj: Obj): void {
  const desc = goOrderOf(obj.apiVersion, obj.kind);
  if (!desc) return;
  const encoded = inGoOrder(desc, obj, false) as Obj;
  if (encoded === obj) return;
  // Changed values only, and no delete unless a field went: a delete turns the object into a
  // slow dictionary for everything that reads it after (the top-level order is the writer's).
  for (const k of Object.keys(obj)) if (!Object.hasOwn(encoded, k)) delete obj[k];
  for (const k of Object.keys(encoded)) if (!Object.hasOwn(obj, k) || obj[k] !== encoded[k]) put(obj, k, encoded[k]);
}

/** The message an object of this apiVersion and kind decodes into, when it is a built-in with one. */
export function goOrderOf(apiVersion: unknown, kind: unknown): MessageDesc | undefined {
  return typeof apiVersion === 'string' && typeof kind === 'string' ? messageForKind(apiVersion, kind) : undefined;
}

/**
 * `value`, a JSON value of the message `desc`, as encoding/json would write the Go struct it
 * decodes into (a copy where anything changed). `keepOrder`: this object's own keys keep their
 * order (its values are still done); `topLevel`: a stored object, whose metadata keeps its order.
 */
export function inGoOrder(desc: MessageDesc, value: unknown, encode = true, keepOrder = false, topLevel = false): unknown {
  // Times, quantities, raw extensions and the like marshal as themselves: a raw extension's
  // bytes, in particular, are written as the client sent them.
  if (desc.special !== S_NONE || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Obj;
  const plan = planOf(desc);
  const keys = Object.keys(obj);
  let changed = false;
  let last = -1;
  // Always-written fields the object has: when it has them all, none needs looking up.
  let always = 0;
  for (const k of keys) {
    const f = plan.fields.get(k);
    // Keys the message does not have (a top-level kind and apiVersion: TypeMeta is not in the
    // protobuf message, and comes first in Go's struct) go first, in their order.
    if (f === undefined) continue;
    // Only what is written is in Go's order: the decoded form keeps the caller's.
    if (f.at < last && encode && !keepOrder) changed = true;
    last = f.at;
    if (f.mode === OMIT_EMPTY ? isEmptyValue(f.desc, obj[k]) : !encode && f.nullZero && obj[k] === null) changed = true;
    if (f.mode >= ALWAYS_STRUCT) always++;
    // Once changed, the rebuild below looks at every key again.
    if (changed) break;
  }
  if (!changed && always < plan.always.length) for (const f of plan.always) if (!(f.desc.json in obj) && (encode || !f.nullZero)) changed = true;
  // Values in key order: the object's own, zero values for what Go always writes, and nothing
  // for empty omitempty fields.
  let out: Obj | undefined;
  if (changed) {
    out = {};
    // The fields to look at, in Go's order: the object's own and the always-written ones it
    // lacks. Sorting these few costs less than visiting every field of the message (a PodSpec
    // has ~40, a client sends a handful).
    const fields: FieldPlan[] = [];
    for (const k of keys) {
      const f = plan.fields.get(k);
      if (f === undefined) put(out, k, obj[k]);
      else fields.push(f);
    }
    for (const f of plan.always) if (!(f.desc.json in obj)) fields.push(f);
    sortInPlace(fields, byGoOrder);
    for (const f of fields) {
      const k = f.desc.json;
      if (k in obj) {
        const v = obj[k];
        if (f.mode === OMIT_EMPTY ? !isEmptyValue(f.desc, v) : encode || !f.nullZero || v !== null) put(out, k, v);
      } else if (f.zero && (encode || !f.nullZero)) put(out, k, f.zero(encode));
    }
    // Into the values: the rebuilt object's fields are these (the keys the message does not
    // have are written as they are), so no key list of it and no second lookup per key.
    for (const f of fields) {
      const k = f.desc.json;
      if (Object.hasOwn(out, k)) valueInGoOrder(out, f, k, out[k], encode, topLevel);
    }
    return out;
  }
  // Unchanged, the object's own key list serves again (a second Object.keys per struct was a
  // fair share of a create's garbage).
  for (const k of keys) {
    const v = obj[k];
    // Scalars are done (a null struct is not: it becomes the zero struct).
    if (typeof v !== 'object') continue;
    const f = plan.fields.get(k);
    if (f === undefined) continue;
    const next = childInGoOrder(f, k, v, encode, topLevel);
    if (next !== v) put((out ??= { ...obj }), k, next);
  }
  return out ?? obj;
}

/** A rebuilt struct's field value, replaced in place when it changes. */
function valueInGoOrder(out: Obj, f: FieldPlan, k: string, v: unknown, encode: boolean, topLevel: boolean): void {
  // Scalars are done (a null struct is not: it becomes the zero struct).
  if (typeof v !== 'object') return;
  const next = childInGoOrder(f, k, v, encode, topLevel);
  if (next !== v) put(out, k, next);
}

function childInGoOrder(f: FieldPlan, k: string, v: unknown, encode: boolean, topLevel: boolean): unknown {
  // A stored object's own metadata is put in order by the stored-text writer (orderedMetadata).
  return topLevel && k === 'metadata' ? inGoOrder(f.desc.message!, v, encode, true) : fieldInGoOrder(f, v, encode);
}

function byGoOrder(a: FieldPlan, b: FieldPlan): number {
  return a.at - b.at;
}

function fieldInGoOrder(f: FieldPlan, v: unknown, encode: boolean): unknown {
  const d = f.desc;
  // null: Go decodes it as the zero value.
  if (v === null) return f.zero && !f.nullZero ? f.zero(encode) : v;
  if (typeof v !== 'object') return v;
  if (d.map) return Array.isArray(v) ? v : sortedMap(v as Obj, d.kind === K_MESSAGE ? d.message! : undefined, encode);
  if (d.repeated) {
    if (!Array.isArray(v) || d.kind !== K_MESSAGE) return v;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const next = inGoOrder(d.message!, v[i], encode);
      if (next !== v[i]) (out ??= [...v])[i] = next;
    }
    return out ?? v;
  }
  return d.kind === K_MESSAGE ? inGoOrder(d.message!, v, encode) : v;
}

/** A Go map: keys sorted bytewise, message values in their order. */
function sortedMap(m: Obj, values: MessageDesc | undefined, encode: boolean): Obj {
  const sorted = withSortedKeys(m);
  let out: Obj | undefined = sorted === m ? undefined : sorted;
  if (values) {
    for (const k of Object.keys(sorted)) {
      const v = sorted[k];
      const next = inGoOrder(values, v, encode);
      if (next !== v) put((out ??= { ...m }), k, next);
    }
  }
  return out ?? m;
}
