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

export type ApiBody = string | Uint8Array | ApiStream | undefined;

export interface ApiResponse {
  status: number;
  /** Header names in canonical case (`Content-Type`); multi-valued Warning headers joined with ", ". */
  headers: Record<string, string>;
  body: ApiBody;
}

export function isStream(body: ApiBody): body is ApiStream {
  return typeof body === 'object' && body !== null && (body as ApiStream).kind === 'stream';
}
