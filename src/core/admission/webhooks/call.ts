// One call of one webhook through the host's transport, with its timeout. The core never opens
// connections: the host gives a transport (Node: https.request); without one, or for a
// `clientConfig.service` (no in-cluster network here), the call fails and failurePolicy decides.
import type { ClientConfig } from './config';

export interface WebhookCall {
  url: string;
  /** PEM text of clientConfig.caBundle, when set. */
  caBundle?: string;
  body: string;
  timeoutMs: number;
}

export type WebhookTransport = (call: WebhookCall) => Promise<{ status: number; body: string }>;

/** A failed call: `reason` is what follows `failed calling webhook "<name>": `. */
export class CallFailure extends Error {}

function pemOf(caBundle: string | undefined): string | undefined {
  if (!caBundle) return undefined;
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(caBundle), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** The URL kube posts to: the configured one with `timeout=<n>s` (the seconds the caller waits). */
export function callUrl(cc: ClientConfig, timeoutSeconds: number): string | undefined {
  let base: string;
  if (cc.url) base = cc.url;
  else if (cc.service) base = `https://${cc.service.name}.${cc.service.namespace}.svc:${cc.service.port ?? 443}${cc.service.path ?? ''}`;
  else return undefined;
  return `${base}${base.includes('?') ? '&' : '?'}timeout=${timeoutSeconds}s`;
}

export async function callWebhook(transport: WebhookTransport | undefined, cc: ClientConfig, timeoutSeconds: number, body: string): Promise<string> {
  const url = callUrl(cc, timeoutSeconds);
  if (!url) throw new CallFailure('webhook client config has neither a url nor a service');
  if (cc.service && !cc.url) {
    const host = `${cc.service.name}.${cc.service.namespace}.svc`;
    throw new CallFailure(`Post ${JSON.stringify(url)}: dial tcp: lookup ${host}: no such host`);
  }
  if (!transport) throw new CallFailure(`Post ${JSON.stringify(url)}: this API server has no network transport for webhooks`);
  const timeoutMs = timeoutSeconds * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallFailure(`Post ${JSON.stringify(url)}: context deadline exceeded`)), timeoutMs);
  });
  let res: { status: number; body: string };
  try {
    res = await Promise.race([transport({ url, caBundle: pemOf(cc.caBundle), body, timeoutMs }), timeout]);
  } catch (err) {
    if (err instanceof CallFailure) throw err;
    throw new CallFailure(`Post ${JSON.stringify(url)}: ${(err as Error)?.message ?? String(err)}`);
  } finally {
    clearTimeout(timer);
  }
  if (res.status < 200 || res.status > 299) {
    const text = res.body.trim();
    throw new CallFailure(text ? `an error on the server (${JSON.stringify(text.slice(0, 200))}) has prevented the request from succeeding` : `the server responded with the status code ${res.status} but did not return more information`);
  }
  return res.body;
}
