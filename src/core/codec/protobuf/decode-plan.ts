// Per-message decoding plans, built once per message type on first use. A plan lays out the
// message's JSON keys in the order the JSON form uses (Go struct order, embedded structs
// flattened in place) and maps each field number to its slot in that layout and to what the
// decoder must do with it; the decoder then fills slots in wire order and builds the object in
// slot order, so keys come out in JSON order without a second pass.
import { K_MESSAGE, type FieldDesc, type MessageDesc } from './descriptors';

/** What the decoder does with a field's bytes. */
export const OP_SCALAR = 0;
export const OP_MESSAGE = 1;
export const OP_REPEATED_SCALAR = 2;
export const OP_REPEATED_MESSAGE = 3;
export const OP_MAP = 4;
/** Embedded Go struct: its fields fill the parent's slots starting at this field's slot. */
export const OP_INLINE = 5;

export interface DecodeField {
  readonly desc: FieldDesc;
  readonly op: number;
  /** Slot of the value (OP_INLINE: first slot of the embedded struct's keys). */
  readonly slot: number;
  /** Wire type the field is written with (2 for anything length-delimited). */
  readonly wireType: number;
  /** The plan of the field's message (or map value message), resolved on first use. */
  sub: DecodePlan | null;
}

export interface DecodePlan {
  readonly desc: MessageDesc;
  /** S_* of the message (S_NONE: an object of its fields). */
  readonly special: number;
  /** JSON keys by slot. */
  readonly keys: readonly string[];
  /** Field plan by field number (sparse). */
  readonly byNumber: readonly (DecodeField | undefined)[];
}

const plans = new WeakMap<MessageDesc, DecodePlan>();

export function decodePlanOf(desc: MessageDesc): DecodePlan {
  let plan = plans.get(desc);
  if (plan === undefined) {
    plan = buildPlan(desc);
    plans.set(desc, plan);
  }
  return plan;
}

/** The plan of a field's message, cached on the field plan (recursive types resolve lazily). */
export function subPlan(field: DecodeField): DecodePlan {
  return field.sub ?? (field.sub = decodePlanOf(field.desc.message!));
}

function opOf(f: FieldDesc): number {
  if (f.inline) return OP_INLINE;
  if (f.map) return OP_MAP;
  if (f.repeated) return f.kind === K_MESSAGE ? OP_REPEATED_MESSAGE : OP_REPEATED_SCALAR;
  return f.kind === K_MESSAGE ? OP_MESSAGE : OP_SCALAR;
}

/** JSON keys of a message in Go struct order, embedded structs flattened in place. */
function flatKeys(desc: MessageDesc): string[] {
  const keys: string[] = [];
  for (const f of desc.fields) {
    if (f.inline) keys.push(...flatKeys(f.message!));
    else keys.push(f.json);
  }
  return keys;
}

function buildPlan(desc: MessageDesc): DecodePlan {
  const byNumber: (DecodeField | undefined)[] = [];
  let slot = 0;
  for (const f of desc.fields) {
    byNumber[f.number] = { desc: f, op: opOf(f), slot, wireType: f.key & 7, sub: null };
    slot += f.inline ? flatKeys(f.message!).length : 1;
  }
  // Fill the holes so lookups by field number stay on a packed array.
  for (let i = 0; i < byNumber.length; i++) if (!(i in byNumber)) byNumber[i] = undefined;
  return { desc, special: desc.special, keys: flatKeys(desc), byNumber };
}
