// The Node host's transport for admission webhooks: POST the AdmissionReview to the webhook's
// URL, over HTTPS verified against clientConfig.caBundle (or the system roots when absent), or
// plain HTTP for http:// URLs (useful for local experiments and tests).
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import type { WebhookCall } from '../../core/api';

export function nodeWebhookTransport(call: WebhookCall): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(call.url);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*' },
        timeout: call.timeoutMs,
        ...(url.protocol === 'https:' && call.caBundle ? { ca: call.caBundle } : {}),
        // A service's certificate names `<name>.<namespace>.svc`, not the address dialled.
        ...(url.protocol === 'https:' && call.serverName ? { servername: call.serverName, checkServerIdentity: (_host: string, cert: PeerCertificate) => checkServerIdentity(call.serverName as string, cert) } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', (err: NodeJS.ErrnoException) => reject(new Error(goStyleError(err, url))));
    req.end(call.body);
  });
}

/** Node's errors in the words Go's net/http client uses, as kube-apiserver prints them. */
function goStyleError(err: NodeJS.ErrnoException, url: URL): string {
  const port = url.port || (url.protocol === 'http:' ? '80' : '443');
  const addr = `${url.hostname}:${port}`;
  if (err.code === 'ECONNREFUSED') return `dial tcp ${addr}: connect: connection refused`;
  if (err.code === 'ENOTFOUND') return `dial tcp: lookup ${url.hostname}: no such host`;
  if (err.code && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(err.code)) return `x509: certificate signed by unknown authority`;
  return err.message;
}
