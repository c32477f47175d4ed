// The field manager kube-apiserver derives from the User-Agent when a write names none:
// everything before the first '/', unprintable characters dropped, at most 128 bytes.

export const FIELD_MANAGER_MAX_LENGTH = 128;

const encoder = new TextEncoder();

/** Printable ASCII only: every character is one byte and kept (the common case, no per-character work). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

// One client usually sends every request: the last answer is remembered.
let lastAgent: string | undefined;
let lastManager = '';

export function managerFromUserAgent(ua: string | undefined): string {
  if (ua === lastAgent && ua !== undefined) return lastManager;
  const manager = derive(ua ?? '');
  lastAgent = ua;
  lastManager = manager;
  return manager;
}

function derive(ua: string): string {
  const slash = ua.indexOf('/');
  const prefix = slash < 0 ? ua : ua.slice(0, slash);
  if (PRINTABLE_ASCII.test(prefix)) return prefix.slice(0, FIELD_MANAGER_MAX_LENGTH);
  let out = '';
  let bytes = 0;
  for (const ch of prefix) {
    if (!isPrintable(ch)) continue;
    const n = encoder.encode(ch).length;
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
function isPrintable(ch: string): boolean {
  return ch === ' ' || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(ch);
}
