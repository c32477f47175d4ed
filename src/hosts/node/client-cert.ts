// Client certificates signed by the data dir's CA (the one `--secure-port` creates): the x509
// authentication of kube-apiserver reads the user from the subject's CN and the groups from its
// O values. The kubeconfig's admin gets one like kubeadm's `kubernetes-admin` (O =
// system:masters); tests issue others for arbitrary users. Generated with `openssl`, as tls.ts.
import { execFile } from 'node:child_process';
import { randomBytes, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { caFiles, exists } from './tls';

const run = promisify(execFile);

export interface ClientCertificatePem {
  cert: string;
  key: string;
}

export interface ClientIdentity {
  user: string;
  groups?: string[];
  /** Validity in days; default 365 (kubeadm's client certificates last a year). */
  days?: number;
}

/** kubeadm's admin identity: a member of system:masters, bound to cluster-admin by the bootstrap policy. */
export const ADMIN_IDENTITY: ClientIdentity = { user: 'kubernetes-admin', groups: ['system:masters'] };

const ADMIN_FILES = { cert: 'admin.crt', key: 'admin.key' };

/** openssl's `-subj` syntax: `/` separates attributes, so it (and the escape character) is escaped. */
function subjectValue(v: string): string {
  return v.replace(/[\\/]/g, (c) => `\\${c}`);
}

/** `/CN=user/O=group1/O=group2`: one RDN per O, which Go's pkix.Name collects into Organization. */
export function subjectOf(id: ClientIdentity): string {
  return [`/CN=${subjectValue(id.user)}`, ...(id.groups ?? []).filter((g) => g !== '').map((g) => `/O=${subjectValue(g)}`)].join('');
}

/** A random positive 128-bit serial, so concurrent issuers never share a serial file. */
function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] &= 0x7f;
  return '0x' + bytes.toString('hex');
}

/** Issues a client certificate (P-256 key, extendedKeyUsage clientAuth) signed by the data dir's CA. */
export async function issueClientCertificate(dataDir: string, id: ClientIdentity): Promise<ClientCertificatePem> {
  if (!id.user) throw new Error('a client certificate needs a user (CN)');
  const ca = caFiles(dataDir);
  const work = await mkdtemp(join(tmpdir(), 'kube-playground-client-cert-'));
  const p = (f: string) => join(work, f);
  try {
    await run('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-utf8', '-keyout', p('key.pem'), '-out', p('req.csr'), '-subj', subjectOf(id)]);
    await writeFile(p('ext.cnf'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
    const days = String(id.days ?? 365);
    await run('openssl', ['x509', '-req', '-in', p('req.csr'), '-CA', ca.cert, '-CAkey', ca.key, '-set_serial', randomSerial(), '-days', days, '-extfile', p('ext.cnf'), '-out', p('cert.pem')]);
    const [cert, key] = await Promise.all([readFile(p('cert.pem'), 'utf8'), readFile(p('key.pem'), 'utf8')]);
    return { cert, key };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Still usable: signed by the current CA (the data dir may have a new one) and not expired. */
function stillValid(certPem: string, caPem: string): boolean {
  try {
    const cert = new X509Certificate(certPem);
    return cert.verify(new X509Certificate(caPem).publicKey) && Date.parse(cert.validTo) > Date.now();
  } catch {
    return false;
  }
}

/** The admin's client certificate, created on first use and kept in the data dir (mode 0600). */
export async function ensureAdminClientCertificate(dataDir: string): Promise<ClientCertificatePem> {
  const certPath = join(dataDir, ADMIN_FILES.cert);
  const keyPath = join(dataDir, ADMIN_FILES.key);
  const caPem = await readFile(caFiles(dataDir).cert, 'utf8');
  if ((await exists(certPath)) && (await exists(keyPath))) {
    const [cert, key] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    if (stillValid(cert, caPem)) return { cert, key };
  }
  const issued = await issueClientCertificate(dataDir, ADMIN_IDENTITY);
  await writeFile(keyPath, issued.key, { mode: 0o600 });
  await writeFile(certPath, issued.cert, { mode: 0o600 });
  return issued;
}

/**
 * --client-ca-file: a PEM bundle of CA certificates. Fails start-up when the file cannot be read
 * or holds no certificate, as kube-apiserver refuses an empty or unparsable client CA bundle.
 */
export async function loadClientCaFile(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`unable to load client CA file ${JSON.stringify(path)}: ${(err as Error).message}`);
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error(`unable to load client CA file ${JSON.stringify(path)}: data does not contain any valid RSA or ECDSA certificates`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw new Error(`unable to load client CA file ${JSON.stringify(path)}: ${(err as Error).message}`);
    }
  }
  return blocks.join('\n') + '\n';
}
