// The serving certificate of `--secure-port`: a self-signed CA and a server certificate signed
// by it, created on first start in the data dir and reused afterwards (so kubeconfigs stay
// valid across restarts). Generated with the `openssl` command line tool, which Debian-based
// machines and CI images ship; node:crypto cannot issue X.509 certificates by itself.
import { execFile } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ServingCerts {
  /** PEM of the CA that signed the serving certificate (goes into kubeconfig). */
  caCert: string;
  cert: string;
  key: string;
}

const FILES = { caKey: 'ca.key', caCert: 'ca.crt', key: 'apiserver.key', csr: 'apiserver.csr', cert: 'apiserver.crt', ext: 'apiserver.ext' };

/** Where the CA's certificate and key live in a data dir (client certificates are signed with them too). */
export function caFiles(dataDir: string): { cert: string; key: string } {
  return { cert: join(dataDir, FILES.caCert), key: join(dataDir, FILES.caKey) };
}

export async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** IPs and names the certificate is valid for: loopback always, plus the listen host. */
export function subjectAltNames(host: string): string {
  const names = new Set(['DNS:localhost', 'DNS:kubernetes', 'DNS:kubernetes.default', 'DNS:kubernetes.default.svc', 'IP:127.0.0.1', 'IP:::1']);
  if (/^[\d.]+$/.test(host) || host.includes(':')) names.add(`IP:${host}`);
  else if (host) names.add(`DNS:${host}`);
  return [...names].join(',');
}

export async function ensureServingCerts(dataDir: string, host: string): Promise<ServingCerts> {
  const p = (f: string) => join(dataDir, f);
  if (!(await exists(p(FILES.cert))) || !(await exists(p(FILES.key))) || !(await exists(p(FILES.caCert)))) {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    // P-256 keys: quick to create, accepted by Go's TLS stack (kubectl, helm).
    const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    await run('openssl', ['req', '-x509', ...newKey, '-keyout', p(FILES.caKey), '-out', p(FILES.caCert), '-days', '3650', '-subj', '/CN=kube-playground-ca']);
    await run('openssl', ['req', ...newKey, '-keyout', p(FILES.key), '-out', p(FILES.csr), '-subj', '/CN=kube-apiserver']);
    await writeFile(p(FILES.ext), `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\nsubjectAltName=${subjectAltNames(host)}\n`);
    await run('openssl', ['x509', '-req', '-in', p(FILES.csr), '-CA', p(FILES.caCert), '-CAkey', p(FILES.caKey), '-CAcreateserial', '-out', p(FILES.cert), '-days', '825', '-extfile', p(FILES.ext)]);
  }
  const [caCert, cert, key] = await Promise.all([readFile(p(FILES.caCert), 'utf8'), readFile(p(FILES.cert), 'utf8'), readFile(p(FILES.key), 'utf8')]);
  return { caCert, cert, key };
}
