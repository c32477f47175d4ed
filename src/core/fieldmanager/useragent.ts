// The field manager kube-apiserver derives from the User-Agent when a write names none:
// everything before the first '/', unprintable characters dropped, at most 128 bytes.

export const FIELD_MANAGER_MAX_LENGTH = 128;

const encoder = new TextEncoder();

export function managerFromUserAgent(ua: string | undefined): string {
  const prefix = (ua ?? '').split('/')[0] ?? '';
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
