// Applying RFC 6902 operations as evanphx/json-patch (v4, which kube-apiserver v1.23 uses) does.
// Written here rather than taken from fast-json-patch because every key of a path is a client's
// string: fast-json-patch reads and writes `obj[key]` on ordinary objects (so `/data/toString`
// finds Object.prototype's function and `__proto__` replaces a prototype), and its guard refuses
// `__proto__` paths that kube applies as ordinary keys. See docs/decisions/0019-any-key-is-a-key.md.
import { ownValue, setOwnKey } from '../codec/own-keys';

type Obj = Record<string, unknown>;

/** Why an operation does not apply (kube answers every such failure with one generic 422). */
export class JsonPatchApplyFailure extends Error {}

const fail = (why: string): never => {
  throw new JsonPatchApplyFailure(why);
};

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const copy = <T>(v: T): T => (v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T));

/** RFC 6901: `~1` is `/`, then `~0` is `~`. */
function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Go's strconv.Atoi: optional sign, decimal digits, within int64 (here: a safe integer). */
function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) return fail(`value was not a proper array index: '${s}'`);
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : fail(`value out of range: '${s}'`);
}

/** An index of `list` for get, set and remove; negative indices count from the end. */
function existingIndex(list: unknown[], key: string): number {
  let i = atoi(key);
  if (i < 0) {
    if (i < -list.length) fail(`Unable to access invalid index: ${i}`);
    i += list.length;
  }
  if (i >= list.length) fail(`Unable to access invalid index: ${i}`);
  return i;
}

type Container = Obj | unknown[];

/** evanphx's findObject: the container holding the path's last token, and that token. */
function findParent(doc: Container, path: unknown): [Container, string] {
  if (typeof path !== 'string') return fail('operation missing path field');
  const tokens = path.split('/');
  if (tokens.length < 2) return fail(`doc is missing path: "${path}"`);
  let node: Container = doc;
  for (const raw of tokens.slice(1, -1)) {
    const next = get(node, decodeToken(raw));
    if (next === null || typeof next !== 'object') return fail(`doc is missing path: "${path}"`);
    node = next as Container;
  }
  return [node, decodeToken(tokens[tokens.length - 1]!)];
}

/** The value at `key`; a missing key or index fails. A JSON null is returned as null. */
function get(node: Container, key: string): unknown {
  if (Array.isArray(node)) return node[existingIndex(node, key)];
  if (!Object.hasOwn(node, key)) fail(`unable to get nonexistent key: ${key}`);
  return node[key];
}

function add(node: Container, key: string, value: unknown): void {
  if (!Array.isArray(node)) return setOwnKey(node, key, value);
  if (key === '-') {
    node.push(value);
    return;
  }
  let i = atoi(key);
  const size = node.length + 1;
  if (i >= size) fail(`Unable to access invalid index: ${i}`);
  if (i < 0) {
    if (i < -size) fail(`Unable to access invalid index: ${i}`);
    i += size;
  }
  node.splice(i, 0, value);
}

function remove(node: Container, key: string): void {
  if (Array.isArray(node)) node.splice(existingIndex(node, key), 1);
  else if (!Object.hasOwn(node, key)) fail(`Unable to remove nonexistent key: ${key}`);
  else delete node[key];
}

/** Structural equality of JSON values (object key order aside). */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (!isObj(a) || !isObj(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
}

/** An operation's member: its own key only (an operation is a client's object). */
const member = (op: Obj, name: string): unknown => ownValue(op, name);
/** A missing `value` is JSON null, as Go reads the absent RawMessage. */
const opValue = (op: Obj): unknown => copy(member(op, 'value') ?? null);

function applyOne(doc: Container, op: Obj): void {
  const kind = member(op, 'op');
  const path = member(op, 'path');
  switch (kind) {
    case 'add': {
      const [node, key] = findParent(doc, path);
      return add(node, key, opValue(op));
    }
    case 'remove': {
      const [node, key] = findParent(doc, path);
      return remove(node, key);
    }
    case 'replace': {
      const [node, key] = findParent(doc, path);
      get(node, key);
      if (Array.isArray(node)) node[existingIndex(node, key)] = opValue(op);
      else setOwnKey(node, key, opValue(op));
      return;
    }
    case 'move': {
      const [from, fromKey] = findParent(doc, member(op, 'from'));
      const value = get(from, fromKey);
      remove(from, fromKey);
      const [node, key] = findParent(doc, path);
      return add(node, key, value);
    }
    case 'copy': {
      const [from, fromKey] = findParent(doc, member(op, 'from'));
      const value = copy(get(from, fromKey));
      const [node, key] = findParent(doc, path);
      return add(node, key, value);
    }
    case 'test': {
      if (path === '') {
        if (!equal(doc, opValue(op))) fail('testing value failed');
        return;
      }
      const [node, key] = findParent(doc, path);
      if (!equal(get(node, key), opValue(op))) fail(`testing value ${String(path)} failed`);
      return;
    }
    default:
      fail(`Unexpected kind: ${String(kind)}`);
  }
}

/** The document after every operation, applied in order to a copy (the input is not modified). */
export function applyOperations(doc: unknown, ops: readonly unknown[]): unknown {
  const out = copy(doc);
  if (out === null || typeof out !== 'object') return fail('doc is not a JSON object or array');
  for (const op of ops) {
    if (!isObj(op)) fail('operation is not an object');
    applyOne(out as Container, op as Obj);
  }
  return out;
}
