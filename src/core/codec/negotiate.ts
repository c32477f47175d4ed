// Content negotiation as kube-apiserver does it (apiserver/pkg/endpoints/handlers/negotiation):
// Accept clauses ordered by q and specificity, each matched against the server's offers,
// where the `as`/`g`/`v` parameters must name a conversion the endpoint offers.
import { setOwnKey } from './own-keys';

export interface MediaType {
  /** Lower-cased `type/subtype`. */
  type: string;
  subtype: string;
  params: Record<string, string>;
}

export interface AcceptClause extends MediaType {
  q: number;
}

/** One thing the endpoint can produce, e.g. JSON as a meta.k8s.io/v1 Table. */
export interface MediaOffer {
  /** `application/json`, `application/yaml`, `application/vnd.kubernetes.protobuf`. */
  mediaType: string;
  /** Conversion target, when the offer is a transformed view. */
  as?: string;
  g?: string;
  v?: string;
}

export interface NegotiatedMedia {
  offer: MediaOffer;
  /** The Content-Type to answer with (`application/json;as=Table;v=v1;g=meta.k8s.io`). */
  contentType: string;
  /** `pretty=1` in the Accept clause. */
  pretty: boolean;
  /** `stream=watch` in the Accept clause. */
  stream?: string;
}

export const JSON_OFFER: MediaOffer = { mediaType: 'application/json' };
export const YAML_OFFER: MediaOffer = { mediaType: 'application/yaml' };
export const PROTOBUF_OFFER: MediaOffer = { mediaType: 'application/vnd.kubernetes.protobuf' };
/** The plain serializations every resource endpoint offers, in kube's preference order. */
export const STANDARD_OFFERS: MediaOffer[] = [JSON_OFFER, YAML_OFFER, PROTOBUF_OFFER];

export function tableOffers(): MediaOffer[] {
  return ['v1', 'v1beta1'].flatMap((v) => [
    { mediaType: 'application/json', as: 'Table', g: 'meta.k8s.io', v },
    { mediaType: 'application/vnd.kubernetes.protobuf', as: 'Table', g: 'meta.k8s.io', v },
  ]);
}

/** PartialObjectMetadata for single objects, PartialObjectMetadataList for lists. */
export function partialMetadataOffers(list: boolean): MediaOffer[] {
  const as = list ? 'PartialObjectMetadataList' : 'PartialObjectMetadata';
  return ['v1', 'v1beta1'].flatMap((v) => [
    { mediaType: 'application/json', as, g: 'meta.k8s.io', v },
    { mediaType: 'application/vnd.kubernetes.protobuf', as, g: 'meta.k8s.io', v },
  ]);
}

export function aggregatedDiscoveryOffers(): MediaOffer[] {
  return ['v2', 'v2beta1'].map((v) => ({ mediaType: 'application/json', as: 'APIGroupDiscoveryList', g: 'apidiscovery.k8s.io', v }));
}

/** Split on a separator that is not inside a quoted string. */
function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"') quoted = !quoted;
    if (c === '\\' && quoted && i + 1 < s.length) {
      cur += c + s[++i];
      continue;
    }
    if (c === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out;
}

function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v;
}

/** Parse one media type with parameters; null when it is not `type/subtype`. */
export function parseMediaType(text: string): MediaType | null {
  const [head, ...rest] = splitOutsideQuotes(text, ';');
  const m = /^\s*([^\s/]+)\/([^\s/]+)\s*$/.exec(head);
  if (!m) return null;
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq < 0) {
      if (p.trim() === '') continue;
      return null;
    }
    setOwnKey(params, p.slice(0, eq).trim().toLowerCase(), unquote(p.slice(eq + 1).trim()));
  }
  return { type: m[1].toLowerCase(), subtype: m[2].toLowerCase(), params };
}

/**
 * goautoneg.ParseAccept: clauses sorted by q (highest first), then concrete types before
 * wildcards, then more parameters first; clause order breaks ties.
 */
export function parseAccept(header: string | undefined): readonly AcceptClause[] {
  if (!header) return [];
  return remembered(acceptCache, header, parseAcceptText);
}

function parseAcceptText(header: string): readonly AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const part of splitOutsideQuotes(header, ',')) {
    if (part.trim() === '') continue;
    const mt = parseMediaType(part);
    if (!mt) continue;
    let q = 1;
    if ('q' in mt.params) {
      const n = Number(mt.params.q);
      q = Number.isFinite(n) ? n : 0;
      delete mt.params.q;
    }
    clauses.push({ ...mt, q });
  }
  return clauses
    .map((c, i) => ({ c, i }))
    .sort((a, b) => {
      const ra = rank(a.c);
      const rb = rank(b.c);
      for (let k = 0; k < ra.length; k++) if (ra[k] !== rb[k]) return rb[k] - ra[k];
      return a.i - b.i;
    })
    .map((x) => freezeMediaType(x.c));
}

function rank(c: AcceptClause): number[] {
  return [c.q, c.type === '*' ? 0 : 1, c.subtype === '*' ? 0 : 1, Object.keys(c.params).length];
}

// Clients send the same few Accept and Content-Type headers on every request (kubectl's Table
// Accept has three clauses): each is parsed once. The parsed values are shared, so frozen.
const REMEMBERED_MAX = 256;
const acceptCache = new Map<string, readonly AcceptClause[]>();
const contentTypeCache = new Map<string, Readonly<MediaType> | null>();

function remembered<T>(cache: Map<string, T>, text: string, parse: (text: string) => T): T {
  let v = cache.get(text);
  if (v === undefined && !cache.has(text)) {
    v = parse(text);
    if (cache.size >= REMEMBERED_MAX) cache.clear();
    cache.set(text, v);
  }
  return v as T;
}

function freezeMediaType<T extends MediaType>(m: T): T {
  Object.freeze(m.params);
  return Object.freeze(m);
}

export function offerContentType(o: MediaOffer): string {
  if (!o.as) return o.mediaType;
  // Aggregated discovery answers `g;v;as`, Table/PartialObjectMetadata `as;v;g` as kube writes them.
  if (o.g === 'apidiscovery.k8s.io') return `${o.mediaType};g=${o.g};v=${o.v};as=${o.as}`;
  return `${o.mediaType};as=${o.as};v=${o.v};g=${o.g}`;
}

function clauseMatches(c: AcceptClause, o: MediaOffer): boolean {
  const [type, subtype] = o.mediaType.split('/');
  if (c.type !== '*' && c.type !== type) return false;
  if (c.subtype !== '*' && c.subtype !== subtype) return false;
  // A clause without `as` wants the plain object; with `as` it names one exact conversion.
  const as = c.params.as;
  if (!as) return !o.as;
  return o.as === as && (c.params.g ?? '') === (o.g ?? '') && (c.params.v ?? '') === (o.v ?? '');
}

/**
 * Pick the offer for an Accept header. An empty header means the first offer. Returns null when
 * nothing is acceptable; the caller answers 406 with notAcceptableMessage().
 */
export function negotiate(accept: string | undefined, offers: MediaOffer[]): NegotiatedMedia | null {
  const clauses = parseAccept(accept);
  if (!accept || !accept.trim() || clauses.length === 0) {
    const first = offers.find((o) => !o.as);
    return first ? found(first) : null;
  }
  for (const c of clauses) {
    if (c.q <= 0) continue;
    const o = offers.find((x) => clauseMatches(c, x));
    if (o) return found(o, c);
  }
  return null;
}

function found(offer: MediaOffer, c?: AcceptClause): NegotiatedMedia {
  return {
    offer,
    contentType: offerContentType(offer),
    pretty: c?.params.pretty === '1',
    ...(c?.params.stream ? { stream: c.params.stream } : {}),
  };
}

/** The 406 text: `only the following media types are accepted: application/json, ...`. */
export function notAcceptableMessage(offers: MediaOffer[] = STANDARD_OFFERS): string {
  const types = [...new Set(offers.filter((o) => !o.as).map((o) => o.mediaType))];
  return `only the following media types are accepted: ${types.join(', ')}`;
}

/** The 415 text for request bodies in a format the endpoint cannot read. */
export function unsupportedMediaTypeMessage(accepted: string[] = STANDARD_OFFERS.map((o) => o.mediaType)): string {
  return `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`;
}

/** Parse a request Content-Type (`application/json; charset=utf-8`); null when malformed. */
export function parseContentType(header: string | undefined): Readonly<MediaType> | null {
  if (!header || !header.trim()) return null;
  return remembered(contentTypeCache, header, parseFrozenMediaType);
}

function parseFrozenMediaType(text: string): Readonly<MediaType> | null {
  const m = parseMediaType(text);
  return m && freezeMediaType(m);
}
