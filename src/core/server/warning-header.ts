// The `Warning` response header as kube-apiserver writes it (k8s.io/apiserver's warning recorder
// over apimachinery's NewWarningHeader): `299 - "text"`, only `"` and `\` escaped, the text's
// UTF-8 bytes as they are. A text with control characters is not sent at all, and a repeated
// text is sent once.
//
// Header values in an ApiResponse are byte strings (one char per byte, as Node's writeHead and the
// fetch Headers of a Service Worker both read them), so the UTF-8 bytes of a name like `日本` go
// out unchanged instead of making the host refuse the header.

const utf8 = new TextEncoder();

/** unicode.IsControl: C0, DEL and C1. Go's NewWarningHeader refuses texts holding one. */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return true;
  }
  return false;
}

/** The UTF-8 bytes of a text as a byte string. Lone surrogates become U+FFFD, as Go's decoder makes them. */
export function headerByteString(text: string): string {
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return text;
  const bytes = utf8.encode(text);
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

function quoted(text: string): string {
  return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * One header value for the warnings of a request, comma separated (clients split on the commas
 * between quoted texts); undefined when none is left to send.
 */
export function warningHeaderValue(texts: readonly string[]): string | undefined {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const text of texts) {
    if (text === '' || seen.has(text)) continue;
    seen.add(text);
    if (hasControl(text)) continue;
    parts.push(`299 - ${quoted(text)}`);
  }
  return parts.length ? headerByteString(parts.join(', ')) : undefined;
}
