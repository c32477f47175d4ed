// Built-in objects in the key order kube-apiserver writes them. It decodes every object into its
// Go struct and encodes it again, and encoding/json writes a struct's fields in declaration order
// and a map's keys sorted bytewise: `spec.replicas` before `spec.template` however the client
// ordered them, a container's `name` first, `labels` sorted. The field order comes from the
// protobuf declarations, which list fields in Go struct order (codec/protobuf/descriptors.ts).
//
// Objects are copied where their order changes and shared where it already holds (an object
// decoded from protobuf, or read back from storage, is in order and costs one check per level).
import { compareUtf8 } from '../codec/json-scan';
import { K_MESSAGE, messageForKind, S_NONE, type FieldDesc, type MessageDesc } from '../codec/protobuf/descriptors';
import { sortInPlace } from '../codec/sort-in-place';

type Obj = Record<string, unknown>;

interface Plan {
  /** JSON keys in Go struct order, embedded structs flattened in place. */
  keys: readonly string[];
  /** Key → its position in `keys` and its field (found in an embedded struct for inline ones). */
  fields: ReadonlyMap<string, { at: number; desc: FieldDesc }>;
}

const plans = new WeakMap<MessageDesc, Plan>();

function planOf(desc: MessageDesc): Plan {
  let plan = plans.get(desc);
  if (!plan) {
    const keys: string[] = [];
    const fields = new Map<string, { at: number; desc: FieldDesc }>();
    const add = (d: MessageDesc) => {
      for (const f of d.fields) {
        if (f.inline) add(f.message!);
        else fields.set(f.json, { at: keys.push(f.json) - 1, desc: f });
      }
    };
    add(desc);
    plan = { keys, fields };
    plans.set(desc, plan);
  }
  return plan;
}

/** The message an object of this apiVersion and kind decodes into, when it is a built-in with one. */
export function goOrderOf(apiVersion: unknown, kind: unknown): MessageDesc | undefined {
  return typeof apiVersion === 'string' && typeof kind === 'string' ? messageForKind(apiVersion, kind) : undefined;
}

/** `value`, a JSON value of the message `desc`, in Go's key order (a copy where anything moved). */
export function inGoOrder(desc: MessageDesc, value: unknown): unknown {
  // Times, quantities, raw extensions and the like marshal as themselves: a raw extension's
  // bytes, in particular, are written as the client sent them.
  if (desc.special !== S_NONE || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Obj;
  const plan = planOf(desc);
  const keys = Object.keys(obj);
  let ordered = true;
  let last = -1;
  for (const k of keys) {
    const f = plan.fields.get(k);
    // Keys the message does not have (a top-level kind and apiVersion: TypeMeta is not in the
    // protobuf message) stay, after the message's own, in their order.
    const at = f === undefined ? plan.keys.length : f.at;
    if (at < last) {
      ordered = false;
      break;
    }
    last = at;
  }
  let out: Obj | undefined;
  if (!ordered) {
    out = {};
    for (const k of plan.keys) if (k in obj) put(out, k, obj[k]);
    for (const k of keys) if (!plan.fields.has(k)) put(out, k, obj[k]);
  }
  for (const k of keys) {
    const f = plan.fields.get(k);
    if (f === undefined) continue;
    const v = (out ?? obj)[k];
    const next = fieldInGoOrder(f.desc, v);
    if (next !== v) put((out ??= { ...obj }), k, next);
  }
  return out ?? obj;
}

function fieldInGoOrder(f: FieldDesc, v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (f.map) return Array.isArray(v) ? v : sortedMap(v as Obj, f.kind === K_MESSAGE ? f.message! : undefined);
  if (f.repeated) {
    if (!Array.isArray(v) || f.kind !== K_MESSAGE) return v;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const next = inGoOrder(f.message!, v[i]);
      if (next !== v[i]) (out ??= [...v])[i] = next;
    }
    return out ?? v;
  }
  return f.kind === K_MESSAGE ? inGoOrder(f.message!, v) : v;
}

/** A Go map: keys sorted bytewise, message values in their order. */
function sortedMap(m: Obj, values: MessageDesc | undefined): Obj {
  const keys = Object.keys(m);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = compareUtf8(keys[i - 1]!, keys[i]!) < 0;
  let out: Obj | undefined;
  if (!ordered) {
    out = {};
    for (const k of sortInPlace([...keys], compareUtf8)) put(out, k, m[k]);
  }
  if (values) {
    for (const k of keys) {
      const v = (out ?? m)[k];
      const next = inGoOrder(values, v);
      if (next !== v) put((out ??= { ...m }), k, next);
    }
  }
  return out ?? m;
}

/** Plain assignment, except `__proto__` (a valid ConfigMap key), which must stay an ordinary own key. */
function put(out: Obj, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
