// kube-controller-manager's csrapproving controller (v1.23 pkg/controller/certificates/approver
// sarapprove.go), as the `certificate-controller` service account: a kubelet client certificate
// request (signer kubernetes.io/kube-apiserver-client-kubelet, CN system:node:<name>, O
// system:nodes, client usages only) is approved when a SubjectAccessReview allows its requester
// to create certificatesigningrequests/selfnodeclient (the node renewing its own certificate)
// or certificatesigningrequests/nodeclient. Anything else is left for a person (kubectl
// certificate approve) or another approver.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { kubeletClientProblem, parseCsr, type CertificateRequest } from './csr-request';
import { keyOf, type Informer } from './informer';
import { KeyQueue } from './queue';

export const KUBELET_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client-kubelet';

interface Recognizer {
  subresource: string;
  message: string;
  recognize(csr: Obj, req: CertificateRequest): boolean;
}

const isNodeClient = (csr: Obj, req: CertificateRequest) => csr.spec?.signerName === KUBELET_CLIENT_SIGNER && kubeletClientProblem(req, (csr.spec?.usages ?? []) as string[]) === undefined;

/** The recognizers in kube's order: self node client first. */
const RECOGNIZERS: Recognizer[] = [
  { subresource: 'selfnodeclient', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.', recognize: (csr, req) => isNodeClient(csr, req) && csr.spec?.username === req.commonName },
  { subresource: 'nodeclient', message: 'Auto approving kubelet client certificate after SubjectAccessReview.', recognize: isNodeClient },
];

export function hasDecision(csr: Obj): boolean {
  return ((csr.status?.conditions ?? []) as Obj[]).some((c) => c.type === 'Approved' || c.type === 'Denied');
}

export class CsrApprovingController implements Controller {
  readonly name = 'csrapproving';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private csrs!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('certificate-controller'));
    this.queue = ctx.queue(new KeyQueue('csrapproving', ctx.clock, (key) => this.sync(key)));
    this.csrs = await ctx.informer('/apis/certificates.k8s.io/v1/certificatesigningrequests');
    this.csrs.addHandlers({ onAdd: (c) => this.queue.add(keyOf(c)), onUpdate: (c) => this.queue.add(keyOf(c)) });
  }

  stop(): void {
    this.queue?.stop();
  }

  private async sync(name: string): Promise<void> {
    const csr = this.csrs.get(name);
    if (!csr || hasDecision(csr) || csr.status?.certificate) return;
    const req = parseCsr(csr.spec?.request);
    // Not parseable: not a request this approver recognizes (the signer reports it, if any).
    if ('error' in req) return;
    for (const r of RECOGNIZERS) {
      if (!r.recognize(csr, req)) continue;
      if (!(await this.authorized(csr, r.subresource))) continue;
      const condition = { type: 'Approved', status: 'True', reason: 'AutoApproved', message: r.message, lastUpdateTime: rfc3339Seconds(this.ctx.clock.now()), lastTransitionTime: rfc3339Seconds(this.ctx.clock.now()) };
      const conditions = [...((csr.status?.conditions ?? []) as Obj[]), condition];
      try {
        await this.client.update(`/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}/approval`, { ...csr, apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', status: { ...(csr.status ?? {}), conditions } });
      } catch (err) {
        if (err instanceof ApiCallError && err.code === 404) return;
        throw err;
      }
      return;
    }
  }

  /** A SubjectAccessReview for the requester, as the CSR records them. */
  private async authorized(csr: Obj, subresource: string): Promise<boolean> {
    const spec: Obj = { user: csr.spec?.username, groups: csr.spec?.groups, resourceAttributes: { group: 'certificates.k8s.io', resource: 'certificatesigningrequests', verb: 'create', subresource } };
    if (csr.spec?.uid) spec.uid = csr.spec.uid;
    if (csr.spec?.extra) spec.extra = csr.spec.extra;
    const review = await this.client.create('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
    return review.status?.allowed === true;
  }
}
