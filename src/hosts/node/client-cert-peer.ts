// The TLS peer certificate of a connection as the core's ApiRequest.clientCertificate. The HTTPS
// server requests a certificate without requiring one (kubectl with a token presents none) and
// without rejecting bad ones during the handshake, like kube-apiserver's RequestClientCert: the
// verdict travels with the request and the x509 authenticator answers 401 for a bad one.
import type { TLSSocket } from 'node:tls';
import type { ClientCertificate } from '../../core/meta/types';

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/** One lookup per connection: the certificate cannot change on a kept-alive socket. */
const bySocket = new WeakMap<TLSSocket, ClientCertificate | null>();

/** Node gives one subject attribute as a string and a repeated one as an array. */
function values(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

/**
 * The certificate the peer presented, or undefined. `verified` needs the chain to verify against
 * the server's `ca` (socket.authorized, which includes the validity period) and, like Go's
 * VerifyOptions{KeyUsages: ClientAuth}, an extended key usage that allows client auth when the
 * certificate restricts it.
 */
export function peerClientCertificate(socket: TLSSocket): ClientCertificate | undefined {
  const cached = bySocket.get(socket);
  if (cached !== undefined) return cached ?? undefined;
  const peer = socket.getPeerCertificate();
  let result: ClientCertificate | null = null;
  if (peer && Object.keys(peer).length > 0 && peer.subject) {
    const eku = (peer as { ext_key_usage?: string[] }).ext_key_usage;
    const usable = !eku || eku.includes(CLIENT_AUTH) || eku.includes(ANY_EXTENDED_KEY_USAGE);
    const subject = peer.subject as unknown as Record<string, string | string[] | undefined>;
    result = { verified: socket.authorized && usable, commonName: values(subject.CN)[0] ?? '', organizations: values(subject.O) };
  }
  bySocket.set(socket, result);
  return result ?? undefined;
}
