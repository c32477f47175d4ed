// kube-controller-manager's csrsigning controller (v1.23 pkg/controller/certificates/signer), as
// the `certificate-controller` service account: an approved request for one of kube's signers
// (kube-apiserver-client, kube-apiserver-client-kubelet, kubelet-serving) that meets the signer's
// rules gets status.certificate, issued by the cluster's signing CA (csr-signing-cert.ts); one
// that does not gets a Failed condition (SignerValidationFailure). Like kube-controller-manager
// without --cluster-signing-cert-file/key-file, it does nothing when the host gives no signing
// key (the Node host passes its CA with --secure-port; a browser cluster has none).
import type { Obj } from '../registry/objects';
import { encodeBase64Text } from '../validation/base64';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { KUBELET_CLIENT_SIGNER } from './csr-approving';
import { kubeletClientProblem, parseCsr, type CertificateRequest } from './csr-request';
import { issueCertificate, loadSigningCa, signatureProblem, type SigningCa } from './csr-signing-cert';
import { keyOf, type Informer } from './informer';
import { KeyQueue } from './queue';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

function sameSet(usages: readonly string[], want: string[]): boolean {
  const set = new Set(usages);
  return set.size === want.length && want.every((u) => set.has(u));
}

/** isKubeletServing (v1.23 IsKubeletServingCSR). */
function kubeletServingProblem(req: CertificateRequest, usages: readonly string[]): string | undefined {
  if (req.organizations.length !== 1 || req.organizations[0] !== 'system:nodes') return 'subject organization is not system:nodes';
  if (!req.dnsNames.length && !req.ipAddresses.length) return 'DNS or IP subjectAltName is required';
  if (req.emailAddresses.length) return 'Email subjectAltNames are not allowed';
  if (req.uris.length) return 'URI subjectAltNames are not allowed';
  if (!req.commonName.startsWith('system:node:')) return 'subject common name does not begin with system:node:';
  if (!sameSet(usages, ['digital signature', 'key encipherment', 'server auth']) && !sameSet(usages, ['digital signature', 'server auth'])) return 'usages did not match [digital signature key encipherment server auth]';
  return undefined;
}

/** validAPIServerClientUsages. */
function apiServerClientProblem(usages: readonly string[]): string | undefined {
  for (const u of usages) if (u !== 'digital signature' && u !== 'key encipherment' && u !== 'client auth') return `invalid usage for client certificate: ${u}`;
  return usages.includes('client auth') ? undefined : 'missing required usage for client certificate: client auth';
}

/** Each signer's isRequestForSignerFn; a signer not listed here is someone else's. */
const SIGNERS: Record<string, (req: CertificateRequest, usages: readonly string[]) => string | undefined> = {
  'kubernetes.io/kube-apiserver-client': (_req, usages) => apiServerClientProblem(usages),
  [KUBELET_CLIENT_SIGNER]: kubeletClientProblem,
  'kubernetes.io/kubelet-serving': kubeletServingProblem,
};

const conditionOf = (csr: Obj, type: string) => ((csr.status?.conditions ?? []) as Obj[]).find((c) => c.type === type && c.status === 'True');

export class CsrSigningController implements Controller {
  readonly name = 'csrsigning';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private csrs!: Informer;
  private queue!: KeyQueue;
  private ca?: SigningCa;

  async start(ctx: ControllerContext): Promise<void> {
    if (!ctx.signing) return;
    this.ctx = ctx;
    try {
      this.ca = await loadSigningCa(ctx.signing.certPem, ctx.signing.keyPem);
    } catch (err) {
      console.error(`csrsigning: not started: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    this.client = ctx.client(controllerServiceAccount('certificate-controller'));
    this.queue = ctx.queue(new KeyQueue('csrsigning', ctx.clock, (key) => this.sync(key)));
    this.csrs = await ctx.informer(CSRS);
    this.csrs.addHandlers({ onAdd: (c) => this.queue.add(keyOf(c)), onUpdate: (c) => this.queue.add(keyOf(c)) });
  }

  stop(): void {
    this.queue?.stop();
  }

  private async sync(name: string): Promise<void> {
    const csr = this.csrs.get(name);
    if (!csr || !this.ca || csr.status?.certificate || !conditionOf(csr, 'Approved') || conditionOf(csr, 'Failed')) return;
    const check = SIGNERS[String(csr.spec?.signerName)];
    if (!check) return;
    const req = parseCsr(csr.spec?.request);
    if ('error' in req) return console.error(`csrsigning: unable to parse csr "${name}": ${req.error}`);
    const usages = (csr.spec?.usages ?? []) as string[];
    const problem = check(req, usages);
    const now = this.ctx.clock.now();
    const status = { ...(csr.status ?? {}) };
    if (problem) {
      const at = rfc3339Seconds(now);
      status.conditions = [...((csr.status?.conditions ?? []) as Obj[]), { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: at, lastTransitionTime: at }];
    } else {
      const bad = await signatureProblem(req);
      // kube retries such a request for ever; one log line says the same.
      if (bad) return console.error(`csrsigning: error auto signing csr "${name}": unable to verify certificate request signature: ${bad}`);
      const pem = await issueCertificate(this.ca, req, usages, now, typeof csr.spec?.expirationSeconds === 'number' ? csr.spec.expirationSeconds : undefined);
      status.certificate = encodeBase64Text(pem);
    }
    try {
      await this.client.update(`${CSRS}/${name}/status`, { ...csr, apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', status });
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
}
