// Continue tokens of chunked lists, read as kube-apiserver v1.23's etcd3 store reads them
// (storage/etcd3 decodeContinue): base64url without padding of the JSON `{"v","rv","start"}`,
// decoded by encoding/json into a struct with an int64 `rv`, every failure a 400
// `invalid continue token: continue key is not valid: ...` worded as Go words it.
import { badRequest } from '../meta/status';
import { scanJson, JsonSyntaxError, type JsonNode } from '../codec/json-scan';

const utf8 = new TextEncoder();

const INVALID = 'invalid continue token: continue key is not valid: ';

function invalid(detail: string) {
  return badRequest(`${INVALID}${detail}`);
}

/** base64url without padding, as Go's RawURLEncoding. */
function b64urlEncode(s: string): string {
  const bytes = utf8.encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * base64.RawURLEncoding.DecodeString: the URL alphabet, no padding, CR and LF skipped; an error
 * names the offset of the first byte it could not use.
 */
function b64urlDecode(token: string): Uint8Array {
  const input = utf8.encode(token);
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let inQuantum = 0;
  let lastAt = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === 10 || c === 13) continue;
    const v = ALPHABET.indexOf(String.fromCharCode(c));
    if (c >= 0x80 || v < 0) throw invalid(`illegal base64 data at input byte ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    inQuantum = (inQuantum + 1) % 4;
    lastAt = i;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  // One character alone cannot hold a byte.
  if (inQuantum === 1) throw invalid(`illegal base64 data at input byte ${lastAt}`);
  return Uint8Array.from(out);
}

type FieldName = 'v' | 'rv' | 'start';

/**
 * The struct field a JSON key sets: the exact name, else a case-insensitive match (encoding/json's
 * fold; for `start` the long s `ſ` folds to `s` too).
 */
function fieldOf(key: string): FieldName | undefined {
  if (key === 'v' || key === 'rv' || key === 'start') return key;
  const lower = key.replace(/[A-Z]/g, (c) => c.toLowerCase());
  if (lower === 'v' || lower === 'rv') return lower;
  return lower.replace(/\u017f/g, 's') === 'start' ? 'start' : undefined;
}

/** The word encoding/json's UnmarshalTypeError uses for a value of the wrong kind. */
function jsonKind(node: JsonNode): string {
  if (node.kind === 'object') return 'object';
  if (node.kind === 'array') return 'array';
  if (typeof node.value === 'string') return 'string';
  if (typeof node.value === 'boolean') return 'bool';
  return 'number';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(raw, 10, 64) of a JSON number's text, or undefined when it fails. */
function parseInt64(raw: string): bigint | undefined {
  if (!/^-?[0-9]+$/.test(raw)) return undefined;
  const n = BigInt(raw);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

interface ContinueToken {
  v: string;
  rv: bigint;
  start: string;
}

/** json.Unmarshal into the etcd3 store's continueToken struct. Throws the first error Go reports. */
function unmarshalToken(text: string): ContinueToken {
  let node: JsonNode;
  try {
    node = scanJson(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) throw invalid(err.message);
    throw err;
  }
  const token: ContinueToken = { v: '', rv: 0n, start: '' };
  if (node.kind === 'scalar' && node.value === null) return token;
  if (node.kind !== 'object') throw invalid(`json: cannot unmarshal ${jsonKind(node)} into Go value of type etcd3.continueToken`);
  // Go keeps decoding after a type error and reports the first one at the end.
  let firstError: string | undefined;
  const typeError = (what: string, field: FieldName, type: string) => {
    firstError ??= `json: cannot unmarshal ${what} into Go struct field continueToken.${field} of type ${type}`;
  };
  for (const { key, value } of node.entries) {
    const field = fieldOf(key);
    if (!field) continue;
    if (value.kind === 'scalar' && value.value === null) continue;
    if (field === 'rv') {
      if (value.kind === 'scalar' && typeof value.value === 'number') {
        const raw = value.raw ?? String(value.value);
        const n = parseInt64(raw);
        if (n === undefined) typeError(`number ${raw}`, field, 'int64');
        else token.rv = n;
      } else typeError(jsonKind(value), field, 'int64');
      continue;
    }
    if (value.kind === 'scalar' && typeof value.value === 'string') token[field] = value.value;
    else typeError(jsonKind(value), field, 'string');
  }
  if (firstError !== undefined) throw invalid(firstError);
  return token;
}

/** Go's path.Clean for a rooted path. */
function cleanRootedPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** `start` is the key relative to the list prefix plus "\u0000": the next key to read. */
export function encodeContinue(rev: number, lastKeyRelative: string): string {
  return b64urlEncode(JSON.stringify({ v: 'meta.k8s.io/v1', rv: rev, start: lastKeyRelative + '\u0000' }));
}

export interface DecodedContinue {
  /**
   * The revision to read at. Negative: the latest (what an expired continue answers with); it may
   * lie beyond what a number holds exactly only when it is far past any revision of ours.
   */
  rev: number;
  /** The key (relative to the list prefix) the previous page ended on. */
  afterRelative: string;
}

export function decodeContinue(continueValue: string): DecodedContinue {
  const bytes = b64urlDecode(continueValue);
  const token = unmarshalToken(new TextDecoder().decode(bytes));
  if (token.v !== 'meta.k8s.io/v1') throw invalid('server does not recognize this encoded key');
  if (token.rv === 0n) throw invalid('incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (token.start.length === 0) throw invalid('encoded start key empty (version meta.k8s.io/v1)');
  // The start key may not climb out of the listed prefix: kube cleans it as a path and refuses
  // any key the cleaning would change.
  const key = token.start.startsWith('/') ? token.start : `/${token.start}`;
  if (cleanRootedPath(key) !== key) throw invalid(token.start);
  const relative = key.slice(1);
  return { rev: Number(token.rv), afterRelative: relative.endsWith('\u0000') ? relative.slice(0, -1) : relative };
}

export const CONTINUE_EXPIRED_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
