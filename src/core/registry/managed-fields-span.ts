// Where metadata.managedFields sits in stored text, found without parsing it. managedFields is
// often the largest part of an object and conversion never changes it, so the converting read
// path cuts it out, converts the rest, and splices the original text back in.
//
// Stored text is written by JSON.stringify (see objects.ts: toStoredText): compact, metadata
// first. The scanner relies on that and answers undefined for anything else, so callers fall
// back to a full parse rather than guess.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const METADATA_OPEN = '{"metadata":{';
const MANAGED_FIELDS_KEY = '"managedFields":';

/** Index just past the string whose opening quote is at `start`, or -1 when it is not closed. */
function skipString(s: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = s.indexOf('"', from);
    if (quote === -1) return -1;
    // A quote preceded by an odd number of backslashes is escaped.
    let slashes = 0;
    while (s.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index just past the compact JSON value starting at `start`, or -1 for text it cannot follow. */
function skipValue(s: string, start: number): number {
  const first = s.charCodeAt(start);
  if (first === QUOTE) return skipString(s, start);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: runs to the next delimiter.
    let i = start;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET) break;
      i++;
    }
    return i === start ? -1 : i;
  }
  let depth = 0;
  let i = start;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(s, i);
      if (i === -1) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** Start and end (exclusive) of metadata.managedFields' value in stored text. */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * The span of metadata.managedFields' value in compact stored text (metadata first), or
 * undefined when there is none or the text is not in that form.
 */
export function managedFieldsSpan(storedText: string): TextSpan | undefined {
  if (!storedText.startsWith(METADATA_OPEN)) return undefined;
  let i = METADATA_OPEN.length;
  if (storedText.charCodeAt(i) === CLOSE_BRACE) return undefined;
  for (;;) {
    if (storedText.charCodeAt(i) !== QUOTE) return undefined;
    const isManagedFields = storedText.startsWith(MANAGED_FIELDS_KEY, i);
    const keyEnd = skipString(storedText, i);
    if (keyEnd === -1 || storedText.charCodeAt(keyEnd) !== COLON) return undefined;
    const valueEnd = skipValue(storedText, keyEnd + 1);
    if (valueEnd === -1) return undefined;
    if (isManagedFields) return { start: keyEnd + 1, end: valueEnd };
    const next = storedText.charCodeAt(valueEnd);
    if (next === CLOSE_BRACE) return undefined;
    if (next !== COMMA) return undefined;
    i = valueEnd + 1;
  }
}
