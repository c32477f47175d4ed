// One call of one webhook through the host's transport, with its timeout. The core never opens
// connections: the host gives a transport (Node: https.request); without one the call fails and
// failurePolicy decides. A `clientConfig.service` is resolved as kube-apiserver resolves it
// (service-resolver.ts): a cluster IP refuses the connection (no kube-proxy or pods here), an
// ExternalName service is dialled by name with the service's DNS name as the TLS server name.
import type { ClientConfig } from './config';
import type { ResolvedService } from './service-resolver';

export interface WebhookCall {
  url: string;
  /** PEM text of clientConfig.caBundle, when set. */
  caBundle?: string;
  body: string;
  timeoutMs: number;
  /** The TLS server name to verify when it is not the URL's host (a service's `<name>.<namespace>.svc`). */
  serverName?: string;
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

/** Looks up a service the way kube-apiserver's service resolver does. */
export type ServiceResolver = (namespace: string, name: string, port: number) => Promise<ResolvedService>;

export async function callWebhook(transport: WebhookTransport | undefined, cc: ClientConfig, timeoutSeconds: number, body: string, resolve?: ServiceResolver): Promise<string> {
  const url = callUrl(cc, timeoutSeconds);
  if (!url) throw new CallFailure('webhook client config has neither a url nor a service');
  let target = url;
  let serverName: string | undefined;
  if (cc.service && !cc.url) {
    const { namespace, name } = cc.service;
    const port = cc.service.port ?? 443;
    const resolved: ResolvedService = resolve ? await resolve(namespace, name, port) : { kind: 'error', message: `service ${JSON.stringify(name)} not found` };
    if (resolved.kind === 'error') throw new CallFailure(`Post ${JSON.stringify(url)}: ${resolved.message}`);
    if (resolved.kind === 'clusterIP') throw new CallFailure(`Post ${JSON.stringify(url)}: dial tcp ${resolved.address}: connect: connection refused`);
    serverName = `${name}.${namespace}.svc`;
    // The same request, dialled at the resolved address (callUrl wrote `https://<serverName>:<port>`).
    target = `https://${resolved.address}${url.slice(`https://${serverName}:${port}`.length)}`;
  }
  if (!transport) throw new CallFailure(`Post ${JSON.stringify(url)}: this API server has no network transport for webhooks`);
  const timeoutMs = timeoutSeconds * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CallFailure(`Post ${JSON.stringify(url)}: context deadline exceeded`)), timeoutMs);
  });
  let res: { status: number; body: string };
  try {
    res = await Promise.race([transport({ url: target, caBundle: pemOf(cc.caBundle), body, timeoutMs, ...(serverName ? { serverName } : {}) }), timeout]);
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
