// How an object's text is kept in etcd. The registry encodes an object for a given revision (its
// metadata.resourceVersion is in the text), but etcd assigns the revision only when the write
// commits, as the key's mod_revision. kube-apiserver stores objects without a resourceVersion and
// sets it from mod_revision on every read; we do the same with the text we have: it is encoded
// once with a stand-in revision, and the value in etcd is `<offset>|<text>`, where offset is where
// the stand-in's digits start (-1 when the text does not carry the revision). A read puts the
// key's mod_revision there. The offset is found, not guessed: a text that holds the stand-in twice
// (an annotation with that very value) is encoded a second time with another stand-in, and the
// revision's place is where the two texts first differ.

/** Stand-ins: 16 digits each, never a real revision. */
const STAND_IN = 9007199254740991;
const OTHER_STAND_IN = 9007199254740990;
const DIGITS = String(STAND_IN).length;

export function toStored(encode: (rev: number) => string): string {
  const text = encode(STAND_IN);
  const quoted = `"${STAND_IN}"`;
  const first = text.indexOf(quoted);
  if (first < 0) return `-1|${text}`;
  if (text.indexOf(quoted, first + 1) < 0) return `${first + 1}|${text}`;
  const other = encode(OTHER_STAND_IN);
  let i = 0;
  while (i < text.length && text.charCodeAt(i) === other.charCodeAt(i)) i++;
  // The two stand-ins share their first 15 digits: the difference is in the last one.
  return `${i - (DIGITS - 1)}|${text}`;
}

/** The object's text at `modRev`; throws on a value this store did not write. */
export function fromStored(stored: string, modRev: number): string {
  const bar = stored.indexOf('|');
  const offset = bar > 0 ? Number(stored.slice(0, bar)) : NaN;
  if (!Number.isInteger(offset)) throw new Error(`value is not a kube-playground object (no offset header)`);
  const text = stored.slice(bar + 1);
  if (offset < 0) return text;
  return `${text.slice(0, offset)}${modRev}${text.slice(offset + DIGITS)}`;
}
