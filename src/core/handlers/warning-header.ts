// The `Warning` response header as kube-apiserver writes it (k8s.io/apiserver's warning recorder
// over apimachinery's NewWarningHeader): `299 - "text"`, only `"` and `\` escaped, the text's
// UTF-8 bytes as they are. A text with control characters is not sent at all, a repeated text is
// sent once, and past 4096 runes in all the texts are cut to 256 runes each.
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

/** The warning recorder's limits: past 4096 runes in all, every text is cut to 256 runes. */
const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

function truncated(text: string): { text: string; runes: number } {
  const runes = Array.from(text);
  return runes.length > TRUNCATE_ITEM_RUNES ? { text: runes.slice(0, TRUNCATE_ITEM_RUNES).join(''), runes: TRUNCATE_ITEM_RUNES } : { text, runes: runes.length };
}

/**
 * One header value for the warnings of a request, comma separated (clients split on the commas
 * between quoted texts); undefined when none is left to send. The texts are added one by one as
 * kube's recorder adds them: repeats and empty texts skipped, and once the texts sent would pass
 * 4096 runes, everything so far is sent again cut to 256 runes each, later texts too, until
 * 4096 runes of cut texts have gone out.
 */
export function warningHeaderValue(texts: readonly string[]): string | undefined {
  const seen = new Set<string>();
  const ordered: string[] = [];
  let sent: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text === '') continue;
    if (truncating && written >= TRUNCATE_AT_TOTAL_RUNES) break;
    if (seen.has(text)) continue;
    seen.add(text);
    ordered.push(text);
    let item = { text, runes: Array.from(text).length };
    if (truncating) item = truncated(text);
    if (hasControl(item.text)) continue;
    if (written + item.runes <= TRUNCATE_AT_TOTAL_RUNES || truncating) {
      written += item.runes;
      sent.push(item.text);
      continue;
    }
    truncating = true;
    written = 0;
    sent = [];
    for (const earlier of ordered) {
      const cut = truncated(earlier);
      if (hasControl(cut.text)) continue;
      written += cut.runes;
      sent.push(cut.text);
    }
  }
  return sent.length ? headerByteString(sent.map((t) => `299 - ${quoted(t)}`).join(', ')) : undefined;
}
