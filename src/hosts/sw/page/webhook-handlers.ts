// The page's side of browser webhooks: handlers for URL paths of this page's origin, announced to
// the Service Worker, which forwards AdmissionReviews for those paths here. Any open tab may serve
// a path; the worker picks one that announced it. A closed tab stops serving with nothing to do:
// the worker only asks pages that are still open.
import { isWorkerToPageWebhookMessage, normalizeWebhookPath, type WebhookCallMessage, type WebhookCallReply, type WebhookPathsMessage } from '../webhook-protocol';

/** The `request` of an AdmissionReview (admission.k8s.io/v1), as the API server sends it. */
export interface AdmissionRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
  userInfo: { username: string; uid?: string; groups?: string[] };
  object: Record<string, any> | null;
  oldObject: Record<string, any> | null;
  dryRun: boolean;
  options: Record<string, unknown> | null;
  [field: string]: unknown;
}

export interface AdmissionReviewRequest {
  apiVersion: 'admission.k8s.io/v1';
  kind: 'AdmissionReview';
  request: AdmissionRequest;
}

/** The `response` of an AdmissionReview; `uid` is filled in from the request when absent. */
export interface AdmissionResponse {
  uid?: string;
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string; [field: string]: unknown };
  /** Base64 of a JSON patch (RFC 6902), with patchType `JSONPatch`. */
  patch?: string;
  patchType?: 'JSONPatch';
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/**
 * Answers one AdmissionReview: with its `response`, or with a whole AdmissionReview (sent as is,
 * to show what the API server does with a malformed one). A thrown error is an HTTP 500 answer.
 */
export type WebhookHandler = (review: AdmissionReviewRequest) => AdmissionResponse | Record<string, unknown> | Promise<AdmissionResponse | Record<string, unknown>>;

/** Handler bookkeeping and message answering, apart from the browser globals (tested with plain objects). */
export class PageWebhookHandlers {
  private handlers = new Map<string, WebhookHandler>();

  /** `announce` tells the worker the complete list of paths served now. */
  constructor(private readonly announce: (paths: string[]) => void) {}

  /** Serves `path` with `handler` (replacing this page's previous one); returns the unregister function. */
  register(path: string, handler: WebhookHandler): () => void {
    const p = normalizeWebhookPath(path);
    this.handlers.set(p, handler);
    this.announceNow();
    return () => {
      if (this.handlers.get(p) !== handler) return;
      this.handlers.delete(p);
      this.announceNow();
    };
  }

  paths(): string[] {
    return [...this.handlers.keys()].sort();
  }

  announceNow(): void {
    this.announce(this.paths());
  }

  /** One call: the HTTP status and body a webhook server would answer. */
  async serve(call: WebhookCallMessage): Promise<WebhookCallReply> {
    const handler = this.handlers.get(normalizeWebhookPath(call.path));
    if (!handler) return { type: 'webhook-unserved' };
    try {
      const review = JSON.parse(call.body) as AdmissionReviewRequest;
      const result = await handler(review);
      if (!result || typeof result !== 'object') throw new Error(`the handler returned ${JSON.stringify(result) ?? 'undefined'}, not an AdmissionReview response`);
      const body = (result as { kind?: unknown }).kind === 'AdmissionReview' ? result : { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, ...result } };
      return { type: 'webhook-answer', status: 200, body: JSON.stringify(body) };
    } catch (err) {
      return { type: 'webhook-answer', status: 500, body: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
    }
  }

  /** A message from the worker; answers on `port`. False when it was not a webhook message. */
  async onMessage(data: unknown, port: MessagePort | undefined): Promise<boolean> {
    if (!isWorkerToPageWebhookMessage(data) || !port) return false;
    if (data.type === 'webhook-query') {
      const reply: WebhookPathsMessage = { type: 'webhook-paths', paths: this.paths() };
      port.postMessage(reply);
    } else {
      port.postMessage(await this.serve(data));
    }
    return true;
  }
}

let pageHandlers: PageWebhookHandlers | undefined;

/** This page's handlers, wired to its Service Worker on first use. */
function browserHandlers(): PageWebhookHandlers {
  if (pageHandlers) return pageHandlers;
  const sw = navigator.serviceWorker;
  const handlers = new PageWebhookHandlers((paths) => {
    const msg: WebhookPathsMessage = { type: 'webhook-paths', paths };
    sw.controller?.postMessage(msg);
  });
  sw.addEventListener('message', (e: MessageEvent) => void handlers.onMessage(e.data, e.ports[0]));
  // A new worker knows nothing of this page: tell it (a restarted one asks by itself).
  sw.addEventListener('controllerchange', () => handlers.announceNow());
  sw.startMessages();
  pageHandlers = handlers;
  return handlers;
}

/**
 * Serves admission webhook calls for `path` (a URL path of this page's origin, e.g.
 * `/webhooks/deny`) from this tab: a webhook configuration whose `clientConfig.url` is
 * `location.origin + path` reaches `handler`. Returns the function that stops serving.
 */
export function registerWebhookHandler(path: string, handler: WebhookHandler): () => void {
  return browserHandlers().register(path, handler);
}
