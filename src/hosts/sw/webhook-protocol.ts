// The messages that let a page serve admission webhooks for the Service Worker. A page announces
// which URL paths of its origin it serves; the worker forwards an AdmissionReview to one such page
// over a MessageChannel and waits for the answer. Imported by both sides: no DOM- or SW-only types.

/** Page → worker (no reply port): the complete set of paths this page serves now ([] = none). */
export interface WebhookPathsMessage {
  type: 'webhook-paths';
  paths: string[];
}

/** Worker → page, with a reply port: serve one webhook call. */
export interface WebhookCallMessage {
  type: 'webhook-call';
  /** The URL path the webhook configuration names (query excluded). */
  path: string;
  /** The full URL kube would post to (with `?timeout=<n>s`), for the handler's information. */
  url: string;
  /** The AdmissionReview request as JSON text. */
  body: string;
}

/** Worker → page, with a reply port: which paths do you serve? (after a worker restart lost the list). */
export interface WebhookQueryMessage {
  type: 'webhook-query';
}

export type WorkerToPageWebhookMessage = WebhookCallMessage | WebhookQueryMessage;

/** Page → worker on the reply port of a call: the HTTP answer a webhook server would give. */
export type WebhookCallReply = { type: 'webhook-answer'; status: number; body: string } | { type: 'webhook-unserved' };

export function isWebhookPathsMessage(data: unknown): data is WebhookPathsMessage {
  const m = data as WebhookPathsMessage | undefined;
  return !!m && m.type === 'webhook-paths' && Array.isArray(m.paths) && m.paths.every((p) => typeof p === 'string');
}

export function isWorkerToPageWebhookMessage(data: unknown): data is WorkerToPageWebhookMessage {
  const m = data as WorkerToPageWebhookMessage | undefined;
  return !!m && (m.type === 'webhook-call' || m.type === 'webhook-query');
}

/** A webhook path as both sides compare it: a leading slash, nothing else changed. */
export function normalizeWebhookPath(path: string): string {
  return path.startsWith('/') ? path : `/${path}`;
}
