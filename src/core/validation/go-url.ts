// Go 1.17's net/url.Parse, as far as webhook URL validation looks at it (scheme, host, user
// information, query, fragment), with its error texts (`parse "https://exa mple.com": invalid
// character " " in host name`): kube-apiserver quotes them in its 422s.
import { goQuote } from '../codec/go-quote';

type Encoding = 'host' | 'zone' | 'path' | 'userinfo' | 'fragment';

/** net/url shouldEscape for the host checks of unescape and for Userinfo.String. */
function shouldEscape(c: number, mode: 'host' | 'zone' | 'userinfo'): boolean {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9\-_.~]/.test(ch)) return false;
  if (mode !== 'userinfo') return !`!$&'()*+,;=:[]<>"`.includes(ch);
  return !'$&+,;='.includes(ch);
}

const utf8 = (b: Uint8Array | number[]): string => new TextDecoder().decode(Uint8Array.from(b));
const isHex = (c: number | undefined): boolean => c !== undefined && /[0-9A-Fa-f]/.test(String.fromCharCode(c));

/** net/url unescape: the decoded bytes, or throws the Go error text. */
function unescape(s: string, mode: Encoding): number[] {
  const b = new TextEncoder().encode(s);
  const out: number[] = [];
  for (let i = 0; i < b.length; ) {
    if (b[i] === 0x25) {
      if (i + 2 >= b.length || !isHex(b[i + 1]) || !isHex(b[i + 2])) throw new Error(`invalid URL escape ${goQuote(utf8(b.slice(i, i + 3)))}`);
      const v = parseInt(String.fromCharCode(b[i + 1], b[i + 2]), 16);
      const esc = utf8(b.slice(i, i + 3));
      // Hosts may only %-encode non-ASCII bytes (and %25 for an IPv6 zone).
      if (mode === 'host' && v >> 4 < 8 && esc !== '%25') throw new Error(`invalid URL escape ${goQuote(esc)}`);
      if (mode === 'zone' && esc !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) throw new Error(`invalid URL escape ${goQuote(esc)}`);
      out.push(v);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && b[i] < 0x80 && shouldEscape(b[i], 'host')) throw new Error(`invalid character ${goQuote(String.fromCharCode(b[i]))} in host name`);
      out.push(b[i++]);
    }
  }
  return out;
}

function escapeUserinfo(bytes: number[]): string {
  return bytes.map((c) => (shouldEscape(c, 'userinfo') ? `%${c.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(c))).join('');
}

function checkPort(colonPort: string): void {
  if (colonPort !== '' && !/^:[0-9]*$/.test(colonPort)) throw new Error(`invalid port ${goQuote(colonPort)} after host`);
}

/** net/url parseAuthority: the host (only its emptiness matters) and Userinfo.String(). */
function parseAuthority(authority: string): { host: string; user?: string } {
  const at = authority.lastIndexOf('@');
  const host = at < 0 ? authority : authority.slice(at + 1);
  if (host.startsWith('[')) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new Error("missing ']' in host");
    checkPort(host.slice(close + 1));
    const zone = host.slice(0, close).indexOf('%25');
    if (zone >= 0) {
      unescape(host.slice(0, zone), 'host');
      unescape(host.slice(zone, close), 'zone');
      unescape(host.slice(close), 'host');
    } else unescape(host, 'host');
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0) checkPort(host.slice(colon));
    unescape(host, 'host');
  }
  if (at < 0) return { host };
  const info = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(info)) throw new Error('net/url: invalid userinfo');
  const colon = info.indexOf(':');
  if (colon < 0) return { host, user: escapeUserinfo(unescape(info, 'userinfo')) };
  return { host, user: `${escapeUserinfo(unescape(info.slice(0, colon), 'userinfo'))}:${escapeUserinfo(unescape(info.slice(colon + 1), 'userinfo'))}` };
}

export interface GoURL {
  scheme: string;
  host: string;
  user?: string;
  rawQuery: string;
  fragment: string;
}

/** net/url's parse of the part before '#' (Go 1.17); throws the bare error text. */
function parseNoFragment(u: string): GoURL {
  const url: GoURL = { scheme: '', host: '', rawQuery: '', fragment: '' };
  if (/[\x00-\x1f\x7f]/.test(u)) throw new Error('net/url: invalid control character in URL');
  if (u === '*') return url;
  if (u.startsWith(':')) throw new Error('missing protocol scheme');
  let rest = u;
  const scheme = /^[A-Za-z][A-Za-z0-9+\-.]*:/.exec(u);
  if (scheme) {
    url.scheme = scheme[0].slice(0, -1).toLowerCase();
    rest = u.slice(scheme[0].length);
  }
  const q = rest.indexOf('?');
  if (q === rest.length - 1) rest = rest.slice(0, -1); // ForceQuery: a lone trailing '?'
  else if (q >= 0) [rest, url.rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  if (!rest.startsWith('/')) {
    if (url.scheme) return url; // opaque: "https:host"
    const colon = rest.indexOf(':');
    const slash = rest.indexOf('/');
    if (colon >= 0 && (slash < 0 || colon < slash)) throw new Error('first path segment in URL cannot contain colon');
  }
  if ((url.scheme || !rest.startsWith('///')) && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    Object.assign(url, parseAuthority(slash < 0 ? rest.slice(2) : rest.slice(2, slash)));
    rest = slash < 0 ? '' : rest.slice(slash);
  }
  unescape(rest, 'path');
  return url;
}

/** net/url.Parse as far as ValidateWebhookURL looks at it; throws the *url.Error text. */
export function parseGoURL(raw: string): GoURL {
  const hash = raw.indexOf('#');
  const u = hash < 0 ? raw : raw.slice(0, hash);
  const frag = hash < 0 ? '' : raw.slice(hash + 1);
  let url: GoURL;
  try {
    url = parseNoFragment(u);
  } catch (e) {
    throw new Error(`parse ${goQuote(u)}: ${(e as Error).message}`);
  }
  if (!frag) return url;
  try {
    url.fragment = utf8(unescape(frag, 'fragment'));
  } catch (e) {
    throw new Error(`parse ${goQuote(raw)}: ${(e as Error).message}`);
  }
  return url;
}
