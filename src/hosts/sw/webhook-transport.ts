// The Service Worker's transport for admission webhooks (the core's WebhookTransport).
//
// A `clientConfig.url` on the worker's own origin (same scheme, host and port) is served by an
// open page of this app that registered a handler for exactly that URL path (the query, such as
// kube's `?timeout=10s`, is not part of the match). Any path of the origin qualifies, inside the
// app's base path or not: the worker never sends these calls to the network, so they cannot reach
// the static host by mistake, and the UI proposes paths under the base path. When no open page
// serves the path the call fails as a webhook whose host refuses connections would
// (`dial tcp <host>:<port>: connect: connection refused`), and failurePolicy decides.
//
// Any other URL is POSTed with fetch(): it works for a real endpoint the browser may reach, which
// for another origin means one that allows this page's origin with CORS. The browser verifies TLS
// against its own roots; clientConfig.caBundle cannot be applied here.
import type { WebhookCall, WebhookTransport } from '../../core/api';
import type { WebhookClientRegistry } from './webhook-registry';
import { isWebhookPathsMessage, type WebhookCallMessage, type WebhookCallReply, type WebhookQueryMessage } from './webhook-protocol';

/** The part of a Service Worker `Client` used here. */
export interface WebhookClient {
  readonly id: string;
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/** The part of the Service Worker's `clients` used here. */
export interface WebhookClients {
  matchAll(options: { type: 'window' }): Promise<readonly WebhookClient[]>;
}

export interface SwWebhookTransportOptions {
  /** The worker's origin, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  clients: WebhookClients;
  registry: WebhookClientRegistry;
  /** For URLs on other origins; without it such calls fail with a clear reason. */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** How long to wait for open pages to say what they serve, when the worker lost its list. */
  queryTimeoutMs?: number;
}

const DEFAULT_QUERY_TIMEOUT_MS = 300;

/** Posts one message with a reply port; undefined when no reply came in time. */
export function askClient<T>(client: WebhookClient, message: unknown, timeoutMs: number): Promise<T | undefined> {
  const channel = new MessageChannel();
  return new Promise((resolve) => {
    const finish = (value: T | undefined) => {
      clearTimeout(timer);
      channel.port1.onmessage = null;
      channel.port1.close();
      resolve(value);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    channel.port1.onmessage = (e: MessageEvent) => finish(e.data as T);
    try {
      client.postMessage(message, [channel.port2]);
    } catch {
      finish(undefined);
    }
  });
}

function hostPort(url: URL): string {
  return `${url.hostname}:${url.port || (url.protocol === 'http:' ? '80' : '443')}`;
}

export function createSwWebhookTransport(opts: SwWebhookTransportOptions): WebhookTransport {
  const queryTimeoutMs = opts.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;

  /** Asks every open page what it serves: a restarted worker starts with an empty registry. */
  const rediscover = async (live: readonly WebhookClient[], budgetMs: number) => {
    const query: WebhookQueryMessage = { type: 'webhook-query' };
    await Promise.all(
      live.map(async (client) => {
        const reply = await askClient<unknown>(client, query, Math.min(queryTimeoutMs, budgetMs));
        if (isWebhookPathsMessage(reply)) opts.registry.announce(client.id, reply.paths);
      }),
    );
  };

  const callPage = async (call: WebhookCall, url: URL) => {
    const live = await opts.clients.matchAll({ type: 'window' });
    opts.registry.retain(new Set(live.map((c) => c.id)));
    let ids = opts.registry.clientsFor(url.pathname);
    if (!ids.length) {
      await rediscover(live, call.timeoutMs / 2);
      ids = opts.registry.clientsFor(url.pathname);
    }
    const message: WebhookCallMessage = { type: 'webhook-call', path: url.pathname, url: call.url, body: call.body };
    for (const id of ids) {
      const client = live.find((c) => c.id === id);
      if (!client) continue;
      const reply = await askClient<WebhookCallReply>(client, message, call.timeoutMs);
      if (!reply) throw new Error('context deadline exceeded');
      if (reply.type === 'webhook-answer') return { status: reply.status, body: reply.body };
      // This page dropped the handler meanwhile (its new list is on the way): try the next one.
      opts.registry.announce(id, opts.registry.pathsOf(id).filter((p) => p !== url.pathname));
    }
    throw new Error(`dial tcp ${hostPort(url)}: connect: connection refused`);
  };

  const callNetwork = async (call: WebhookCall) => {
    if (!opts.fetch) throw new Error('this browser host calls webhooks only on its own origin');
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), call.timeoutMs);
    try {
      const res = await opts.fetch(call.url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*' }, body: call.body, signal: controller.signal, mode: 'cors', credentials: 'omit' });
      return { status: res.status, body: await res.text() };
    } catch (err) {
      if (controller.signal.aborted) throw new Error('context deadline exceeded');
      throw new Error(`${(err as Error)?.message ?? String(err)} (a webhook on another origin must allow this page's origin with CORS)`);
    } finally {
      clearTimeout(timer);
    }
  };

  return async (call) => {
    const url = new URL(call.url);
    return url.origin === opts.origin ? callPage(call, url) : callNetwork(call);
  };
}

/**
 * The worker's `message` listener part for webhooks: records a page's announced paths. True when
 * the message was a webhook one (the caller then ignores it).
 */
export function handleWebhookMessage(registry: WebhookClientRegistry, event: { data: unknown }): boolean {
  if (!isWebhookPathsMessage(event.data)) return false;
  const source = (event as { source?: { id?: unknown } | null }).source;
  if (source && typeof source.id === 'string') registry.announce(source.id, event.data.paths);
  return true;
}
