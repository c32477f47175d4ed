// `GET /openapi/v2` as kube-apiserver v1.23 answers it (kube-openapi's handler behind
// gziphandler, then Go's http.ServeContent): the first Accept clause (by q, goautoneg order) that
// names JSON or gnostic protobuf picks the format, anything else is a bodiless 406; the ETag is
// the quoted upper-case hex SHA-512 of the served bytes and If-None-Match / If-Modified-Since give
// a 304; Content-Type is what ServeContent sniffs; bodies of 1400 bytes or more are gzipped for a
// client that accepts gzip. Nothing is built until the first request, and the document, its
// protobuf form, their hashes and gzipped bytes are each made once per set of served resources.
import type { ApiRequest, ApiResponse } from '../meta/types';
import type { ResourceInfo } from '../schema/resource-info';
import { buildSwagger, type AggregatedSpec } from './openapi-v2';
import { swaggerToProtobuf } from './openapi-v2-proto';

const PROTOBUF_SUBTYPE = 'com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** gziphandler's DefaultMinSize: smaller bodies are not worth compressing. */
const GZIP_MIN_SIZE = 1400;
/** kube's WithCacheControl filter: every answer of an authenticated server is private. */
const CACHE_CONTROL = 'no-cache, private';

export interface ServedResources {
  /** Changes whenever the served resources (or a custom resource's schema) change. */
  generation: number;
  resources(): readonly ResourceInfo[];
  /** Aggregated APIs whose APIService is available (their changes must change `generation` too). */
  aggregated?(): readonly AggregatedSpec[];
}

interface Variant {
  bytes: Uint8Array;
  contentType: string;
  etag?: Promise<string | undefined>;
  gzipped?: Promise<Uint8Array | undefined>;
}

interface Built {
  generation: number;
  json: string;
  /** When the document last changed, whole seconds (what Last-Modified can carry). */
  modifiedMs: number;
  variants: Map<'json' | 'protobuf', Variant>;
}

// ---------------------------------------------------------------------------------------------
// Accept negotiation as goautoneg parses and orders it (q=0 clauses included, as kube does).

interface AcceptClause {
  type: string;
  subType: string;
  q: number;
}

export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const part = raw.trim();
    const [range, ...params] = part.split(';');
    const sp = range.split('/');
    const type = sp[0].trim();
    let subType: string;
    if (sp.length === 1 && type === '*') subType = '*';
    else if (sp.length === 2) subType = sp[1].trim();
    else continue;
    let q = 1;
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq === -1) continue;
      if (param.slice(0, eq).trim() === 'q') {
        const value = Number.parseFloat(param.slice(eq + 1));
        q = Number.isNaN(value) ? 0 : value;
      }
    }
    clauses.push({ type, subType, q });
  }
  // Higher q first; at equal q a concrete type or subtype before a wildcard.
  return clauses.sort((a, b) => {
    if (a.q !== b.q) return b.q - a.q;
    if ((a.type === '*') !== (b.type === '*')) return a.type === '*' ? 1 : -1;
    if ((a.subType === '*') !== (b.subType === '*')) return a.subType === '*' ? 1 : -1;
    return 0;
  });
}

function negotiate(accept: string | undefined): 'json' | 'protobuf' | undefined {
  for (const clause of parseAccept(accept || '*/*')) {
    for (const [format, subType] of [['json', 'json'], ['protobuf', PROTOBUF_SUBTYPE]] as const) {
      if (clause.type !== 'application' && clause.type !== '*') continue;
      if (clause.subType !== subType && clause.subType !== '*') continue;
      return format;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// What Go does to bytes: sniffing, hashing, compressing.

/** http.DetectContentType for these two bodies: text unless a byte is one no text has. */
function sniffContentType(bytes: Uint8Array): string {
  const n = Math.min(bytes.length, 512);
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f)) return 'application/octet-stream';
  }
  return 'text/plain; charset=utf-8';
}

interface WebCrypto {
  digest(algorithm: string, data: Uint8Array): Promise<ArrayBuffer>;
}

/** `"<SHA-512 in upper-case hex>"`; WebCrypto is typed locally (the core's globals do not declare it). */
async function etagOf(bytes: Uint8Array): Promise<string | undefined> {
  const subtle = (globalThis as unknown as { crypto?: { subtle?: WebCrypto } }).crypto?.subtle;
  if (!subtle) return undefined;
  const digest = new Uint8Array(await subtle.digest('SHA-512', bytes));
  let hex = '';
  for (const b of digest) hex += b.toString(16).toUpperCase().padStart(2, '0');
  return `"${hex}"`;
}

interface ByteStreams {
  writable: { getWriter(): { write(chunk: Uint8Array): Promise<void>; close(): Promise<void> } };
  readable: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } };
}

/** gzip through the CompressionStream both hosts provide (absent: undefined, served plain). */
async function gzip(bytes: Uint8Array): Promise<Uint8Array | undefined> {
  const Ctor = (globalThis as unknown as { CompressionStream?: new (format: string) => ByteStreams }).CompressionStream;
  if (!Ctor) return undefined;
  const stream = new Ctor('gzip');
  const writer = stream.writable.getWriter();
  // Writing resolves only as the output is read: start both sides before awaiting either.
  const written = writer.write(bytes).then(() => writer.close());
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value) {
      chunks.push(value);
      length += value.byteLength;
    }
  }
  await written;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** gziphandler's acceptsGzip: a `gzip` coding with q > 0. */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const raw of header.split(',')) {
    const [coding, ...params] = raw.split(';').map((s) => s.trim());
    if (coding !== 'gzip') continue;
    let q = 1;
    for (const p of params) if (p.startsWith('q=')) q = Number.parseFloat(p.slice(2));
    return q > 0;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Conditional requests (Go's checkIfNoneMatch / checkIfModifiedSince).

function etagListMatches(header: string, etag: string): boolean {
  const weakless = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || weakless(t) === weakless(etag));
}

function notModified(req: ApiRequest, etag: string | undefined, modifiedMs: number): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return etag !== undefined && etagListMatches(inm, etag);
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && modifiedMs <= since;
}

// ---------------------------------------------------------------------------------------------

export interface OpenApiV2Endpoint {
  serve(req: ApiRequest): Promise<ApiResponse>;
}

export function createOpenApiV2Endpoint(served: ServedResources, now: () => number = () => Date.now()): OpenApiV2Endpoint {
  let built: Built | undefined;

  const current = (): Built => {
    if (built && built.generation === served.generation) return built;
    const json = buildSwagger(served.resources(), new Map(), served.aggregated?.() ?? []);
    if (built && built.json === json) {
      built.generation = served.generation;
      return built;
    }
    built = { generation: served.generation, json, modifiedMs: Math.floor(now() / 1000) * 1000, variants: new Map() };
    return built;
  };

  const variant = (b: Built, format: 'json' | 'protobuf'): Variant => {
    let v = b.variants.get(format);
    if (!v) {
      const bytes = format === 'json' ? new TextEncoder().encode(b.json) : swaggerToProtobuf(b.json);
      v = { bytes, contentType: sniffContentType(bytes) };
      b.variants.set(format, v);
    }
    return v;
  };

  return {
    async serve(req) {
      const gzipAccepted = acceptsGzip(req.headers['accept-encoding']);
      const vary = 'Accept-Encoding, Accept';
      const format = negotiate(req.headers['accept']);
      if (!format) return { status: 406, headers: { 'Cache-Control': CACHE_CONTROL, Vary: vary }, body: undefined };
      const b = current();
      const v = variant(b, format);
      v.etag ??= etagOf(v.bytes);
      const etag = await v.etag;
      const headers: Record<string, string> = { 'Cache-Control': CACHE_CONTROL, Vary: vary };
      if (etag) headers['Etag'] = etag;
      if (notModified(req, etag, b.modifiedMs)) {
        if (!etag) headers['Last-Modified'] = new Date(b.modifiedMs).toUTCString();
        return { status: 304, headers, body: undefined };
      }
      headers['Last-Modified'] = new Date(b.modifiedMs).toUTCString();
      headers['Accept-Ranges'] = 'bytes';
      headers['Content-Type'] = v.contentType;
      if (gzipAccepted && req.method !== 'HEAD' && v.bytes.byteLength >= GZIP_MIN_SIZE) {
        v.gzipped ??= gzip(v.bytes);
        const gz = await v.gzipped;
        if (gz) return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: gz };
      }
      return { status: 200, headers, body: v.bytes };
    },
  };
}
