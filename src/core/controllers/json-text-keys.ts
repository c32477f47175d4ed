// Reading a few keys out of JSON text without parsing it: the scanner steps over whole values
// (strings, nested objects and arrays) to reach a key, so what is skipped costs a pass over its
// characters and no allocation. Keys with escapes in them (JSON.stringify never writes one) are
// not read: the callers parse such text whole. Used where the API's JSON text passes through a
// controller and only a little of it is wanted: the garbage collector's owner references, the
// informer's decode without managedFields.

const QUOTE = 34;
const BACKSLASH = 92;

export function skipWs(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** From an opening quote to just past its closing quote. */
export function skipString(t: string, i: number): number {
  for (i++; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  return -1;
}

/** Past one JSON value starting at i (after whitespace): strings, nested objects and arrays skipped whole. */
export function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === QUOTE) return skipString(t, i);
  if (c !== 123 && c !== 91) {
    // A number, true, false or null: up to the next delimiter.
    while (i < t.length && !',}] \n\r\t'.includes(t[i])) i++;
    return i;
  }
  let depth = 0;
  for (; i < t.length; i++) {
    const d = t.charCodeAt(i);
    if (d === QUOTE) {
      i = skipString(t, i) - 1;
      if (i < 0) return -1;
    } else if (d === 123 || d === 91) depth++;
    else if (d === 125 || d === 93) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Where the member `key` of the object opening at `i` is: its key's opening quote and its
 * value's first character. -1 when the object has no such key, undefined when the text is not
 * what the scanner reads (an escaped key, malformed JSON).
 */
export function findMember(t: string, i: number, key: string): { keyAt: number; valueAt: number } | -1 | undefined {
  if (t.charCodeAt(i) !== 123) return undefined;
  i = skipWs(t, i + 1);
  if (t.charCodeAt(i) === 125) return -1;
  for (;;) {
    if (t.charCodeAt(i) !== QUOTE) return undefined;
    const keyAt = i;
    const end = skipString(t, i);
    if (end < 0) return undefined;
    const name = t.slice(i + 1, end - 1);
    if (name.includes('\\')) return undefined;
    i = skipWs(t, end);
    if (t.charCodeAt(i) !== 58) return undefined;
    i = skipWs(t, i + 1);
    if (name === key) return { keyAt, valueAt: i };
    i = skipValue(t, i);
    if (i < 0) return undefined;
    i = skipWs(t, i);
    const c = t.charCodeAt(i);
    if (c === 125) return -1;
    if (c !== 44) return undefined;
    i = skipWs(t, i + 1);
  }
}

/** Where the value of `key` in the object opening at `i` starts; -1 and undefined as findMember's. */
export function findKey(t: string, i: number, key: string): number | undefined {
  const at = findMember(t, i, key);
  return at === undefined || at === -1 ? at : at.valueAt;
}
