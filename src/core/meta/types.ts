// The host-free contract: a host turns its native request into an ApiRequest, calls
// ApiServer.handle, and writes the ApiResponse back. Plain objects instead of the WHATWG
// Request/Response keep the core free of DOM types and avoid building a Request object per call
// in Node (see docs/decisions/0001-plain-request-response.md).

export interface ApiRequest {
  /** Upper-case HTTP method. */
  method: string;
  /** Path and query exactly as received, e.g. `/api/v1/namespaces/default/pods?limit=5`. */
  url: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Request body bytes (absent or empty for bodiless requests). */
  body?: Uint8Array;
  /**
   * Internal only — hosts never set it from a network request: a create that restores an
   * exported object keeps its metadata.uid and creationTimestamp.
   */
  restore?: boolean;
  /**
   * Internal only — hosts never set it from a network request: the identity of an in-process
   * cluster component (controller, scheduler, simulated kubelet), which calls the API as its real
   * counterpart authenticates (`system:kube-scheduler`, `system:node:<name>`, ...).
   */
  internalUser?: { username: string; groups: string[] };
  /**
   * Set only by a host, from the TLS handshake of the connection — never from headers or the
   * body: the client certificate the peer presented (absent when it presented none). The core's
   * x509 authenticator turns a verified one into a user (CN = name, each O = a group).
   */
  clientCertificate?: ClientCertificate;
}

/** A TLS peer certificate as the host saw it. */
export interface ClientCertificate {
  /** It chains to the server's client CA, is within its validity period and allows client auth. */
  verified: boolean;
  /** Subject CN (empty when the subject has none). */
  commonName: string;
  /** Subject O values, in certificate order. */
  organizations: string[];
}

/** A sink the host gives a streaming body to; the core pushes chunks into it. */
export interface StreamSink {
  /** Queue a chunk; returns false when the host's buffer is over its high-water mark. */
  write(chunk: string | Uint8Array): boolean;
  /** End the response cleanly. */
  end(): void;
}

/** A long-running body (watch, log follow). The host calls start once, cancel when the client goes. */
export interface ApiStream {
  readonly kind: 'stream';
  start(sink: StreamSink): void;
  cancel(): void;
}

/**
 * A fixed body: text, bytes, or bytes in parts that are sent one after another without being
 * joined first (a large list page is its head, the kept bytes of its items and its tail; see
 * handlers/list-bytes.ts). Hosts that need one buffer join the parts with `bodyBytes`.
 */
export type ApiBody = string | Uint8Array | readonly Uint8Array[] | ApiStream | undefined;

export interface ApiResponse {
  status: number;
  /** Header names in canonical case (`Content-Type`); multi-valued Warning headers joined with ", ". */
  headers: Record<string, string>;
  body: ApiBody;
}

export function isStream(body: ApiBody): body is ApiStream {
  return typeof body === 'object' && body !== null && (body as ApiStream).kind === 'stream';
}

export function isParts(body: ApiBody): body is readonly Uint8Array[] {
  return Array.isArray(body);
}

/** Total byte length of a body in parts. */
export function partsLength(parts: readonly Uint8Array[]): number {
  let n = 0;
  for (const p of parts) n += p.byteLength;
  return n;
}

/** A fixed body as one byte array (parts joined, text encoded). */
export function bodyBytes(body: string | Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (!isParts(body)) return body;
  if (body.length === 1) return body[0]!;
  const out = new Uint8Array(partsLength(body));
  let at = 0;
  for (const p of body) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
