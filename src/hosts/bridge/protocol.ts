// What the kubectl bridge (a Node process, src/hosts/node/bridge) and the playground tab that
// serves it (page-relay.ts) say to each other over their one WebSocket. Imported by both sides,
// so it uses only ES2022 (Uint8Array, DataView, TextEncoder): no DOM and no Node types.
//
// Control messages (pairing) are JSON text frames. Relayed requests and answers are binary
// frames: a 4-byte big-endian length, that many bytes of a JSON header, then the body bytes as
// they are, so bodies (protobuf included) cross the socket without re-encoding.

/** The WebSocket path on the bridge's port; every other path is the Kubernetes API. */
export const BRIDGE_SOCKET_PATH = '/__bridge';

/** The port `npm run bridge` listens on unless told otherwise (kubectl proxy has 8001, the page 8080). */
export const DEFAULT_BRIDGE_PORT = 8090;

/**
 * Browsers replace a fetch's User-Agent with their own, so the page carries kubectl's in this
 * header and the Service Worker puts it back before the API sees the request (field managers and
 * audit events name the real client).
 */
export const USER_AGENT_CARRIER = 'x-kube-playground-user-agent';

/** Page → bridge: pair with a one-time code, or come back with the session a pairing gave. */
export type PageControl = { type: 'pair'; code: string } | { type: 'resume'; session: string };

/** Bridge → page: the pairing's outcome, or word that a newer tab took over. */
export type BridgeControl =
  | { type: 'paired'; session: string; server: string; kubeconfig: string }
  | { type: 'refused'; message: string }
  | { type: 'replaced'; message: string };

/** Bridge → page: a request to hand to the Service Worker, or the client went away. */
export type BridgeFrame =
  | { t: 'req'; id: number; method: string; path: string; headers: Array<[string, string]> }
  | { t: 'cancel'; id: number };

/**
 * Page → bridge. `res` carries status and headers; when `stream` is false the body follows in
 * the same frame and the answer is complete, otherwise `data` frames follow until `end`.
 * `fail`: the worker could not answer (stopped, network error), before or during the body.
 */
export type PageFrame =
  | { t: 'res'; id: number; status: number; headers: Array<[string, string]>; stream: boolean }
  | { t: 'data'; id: number }
  | { t: 'end'; id: number }
  | { t: 'fail'; id: number; message: string };

/** WebSocket close codes the bridge uses towards a tab (4000–4999 are the application's). */
export const CLOSE_REPLACED = 4001;
export const CLOSE_REFUSED = 4003;

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
const EMPTY = new Uint8Array(0);

export function encodeFrame(header: BridgeFrame | PageFrame, body: Uint8Array = EMPTY): Uint8Array {
  const head = ENCODER.encode(JSON.stringify(header));
  const out = new Uint8Array(4 + head.byteLength + body.byteLength);
  new DataView(out.buffer).setUint32(0, head.byteLength);
  out.set(head, 4);
  out.set(body, 4 + head.byteLength);
  return out;
}

export class BadFrame extends Error {}

/** Splits a binary frame; the body is a view into the same bytes (no copy). */
export function decodeFrame<T extends BridgeFrame | PageFrame>(bytes: Uint8Array): { header: T; body: Uint8Array } {
  if (bytes.byteLength < 4) throw new BadFrame('frame shorter than its length prefix');
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  if (4 + length > bytes.byteLength) throw new BadFrame('frame header longer than the frame');
  let header: unknown;
  try {
    header = JSON.parse(DECODER.decode(bytes.subarray(4, 4 + length)));
  } catch {
    throw new BadFrame('frame header is not JSON');
  }
  if (typeof header !== 'object' || header === null || typeof (header as { t?: unknown }).t !== 'string' || typeof (header as { id?: unknown }).id !== 'number') {
    throw new BadFrame('frame header lacks t or id');
  }
  return { header: header as T, body: bytes.subarray(4 + length) };
}

/** Go's strconv.ParseBool truths, as kube-apiserver reads `watch=`. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/**
 * Whether a request asks for a watch (`?watch=true` or the legacy `/watch/` path prefix): its
 * answer streams, so the page relays it chunk by chunk instead of as one body.
 */
export function isWatchRequest(pathAndQuery: string): boolean {
  const q = pathAndQuery.indexOf('?');
  const path = q === -1 ? pathAndQuery : pathAndQuery.slice(0, q);
  if (/^\/(api\/[^/]+|apis\/[^/]+\/[^/]+)\/watch(\/|$)/.test(path)) return true;
  if (q === -1) return false;
  for (const pair of pathAndQuery.slice(q + 1).split('&')) {
    const eq = pair.indexOf('=');
    if (eq !== -1 && pair.slice(0, eq) === 'watch') return GO_TRUE.has(decodeURIComponent(pair.slice(eq + 1)));
  }
  return false;
}

/** Go's textproto.CanonicalMIMEHeaderKey: `x-kubernetes-pf-flowschema-uid` → `X-Kubernetes-Pf-Flowschema-Uid`. */
export function canonicalHeaderName(name: string): string {
  // Go leaves names with characters outside the token set as they are.
  if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) return name;
  return name.toLowerCase().replace(/(^|-)([a-z])/g, (_m, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** Pairing codes are 8 digits, shown as `1234-5678`; people may type them with or without the dash. */
export function normalizePairingCode(text: string): string {
  return text.replace(/[\s-]/g, '');
}
