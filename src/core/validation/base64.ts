// Base64 as Go's encoding/base64 StdEncoding decodes []byte fields in JSON, with the same
// `illegal base64 data at input byte N` offsets, plus an encoder for UTF-8 text.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Map<string, number>([...ALPHABET].map((c, i) => [c, i]));

export interface Base64Result {
  bytes?: Uint8Array;
  /** `illegal base64 data at input byte N` when the text is not valid padded base64. */
  error?: string;
}

function corrupt(at: number): Base64Result {
  return { error: `illegal base64 data at input byte ${at}` };
}

const isNewline = (c: string | undefined) => c === '\n' || c === '\r';

export function decodeBase64(src: string): Base64Result {
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const buf: number[] = [];
    let done = false;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { bytes: Uint8Array.from(out) };
        return corrupt(si - j);
      }
      const c = src[si++];
      const v = DECODE.get(c);
      if (v !== undefined) {
        buf.push(v);
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== '=') return corrupt(si - 1);
      if (j < 2) return corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== '=') return corrupt(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) return corrupt(si);
      done = true;
      break;
    }
    const n = buf.length;
    const word = (buf[0] << 18) | ((buf[1] ?? 0) << 12) | ((buf[2] ?? 0) << 6) | (buf[3] ?? 0);
    if (n >= 2) out.push((word >> 16) & 0xff);
    if (n >= 3) out.push((word >> 8) & 0xff);
    if (n >= 4) out.push(word & 0xff);
    if (done) return { bytes: Uint8Array.from(out) };
  }
}

export function encodeBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = bytes.length - i;
    const word = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    s += ALPHABET[(word >> 18) & 63] + ALPHABET[(word >> 12) & 63];
    s += n > 1 ? ALPHABET[(word >> 6) & 63] : '=';
    s += n > 2 ? ALPHABET[word & 63] : '=';
  }
  return s;
}

export function encodeBase64Text(text: string): string {
  return encodeBase64(new TextEncoder().encode(text));
}
