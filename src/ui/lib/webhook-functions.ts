// A learner's webhook as a small JavaScript function body: compiled in the learner's own tab,
// given the AdmissionReview `request`, returning `{ allowed, status?, patch?, warnings?,
// auditAnnotations? }` with `patch` as plain JSON Patch operations, which become the base64
// `patch` and `patchType: JSONPatch` of a real AdmissionReview response. Also the two ready
// examples and the webhook configuration that points the API server at a path of this origin.
import type { AdmissionRequest, AdmissionResponse } from '../../hosts/sw/page/webhook-handlers';

export type WebhookKind = 'validating' | 'mutating';
export type FailurePolicy = 'Fail' | 'Ignore';

export type LearnerFunction = (request: AdmissionRequest) => unknown;

/** Compiles a function body taking `request`; a syntax error is thrown here, before serving. */
export function compileHandler(body: string): LearnerFunction {
  // The learner's own code in the learner's own tab: this is the point of the panel.
  return new Function('request', `"use strict";\n${body}`) as LearnerFunction;
}

/** UTF-8 text as base64 (btoa alone only takes Latin-1). */
export function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The learner's result as an AdmissionReview response; a malformed result is an error. */
export function toAdmissionResponse(result: unknown): AdmissionResponse {
  if (!result || typeof result !== 'object' || typeof (result as { allowed?: unknown }).allowed !== 'boolean') {
    throw new Error(`the function must return an object with allowed: true or false, not ${JSON.stringify(result) ?? 'undefined'}`);
  }
  const r = result as { allowed: boolean; status?: AdmissionResponse['status']; patch?: unknown; warnings?: unknown; auditAnnotations?: unknown };
  const out: AdmissionResponse = { allowed: r.allowed };
  if (r.status !== undefined) out.status = r.status;
  if (r.patch !== undefined) {
    if (!Array.isArray(r.patch)) throw new Error('patch must be a list of JSON Patch operations, e.g. [{ op: "add", path: "/metadata/labels/a", value: "b" }]');
    if (r.patch.length) {
      out.patchType = 'JSONPatch';
      out.patch = base64Utf8(JSON.stringify(r.patch));
    }
  }
  if (Array.isArray(r.warnings)) out.warnings = r.warnings.map(String);
  if (r.auditAnnotations && typeof r.auditAnnotations === 'object') out.auditAnnotations = Object.fromEntries(Object.entries(r.auditAnnotations).map(([k, v]) => [k, String(v)]));
  return out;
}

export interface WebhookExample {
  title: string;
  kind: WebhookKind;
  /** Path relative to the app's base path. */
  path: string;
  /** The configuration's name; the webhook is `<name>.kube-playground.local`. */
  name: string;
  resources: string;
  body: string;
}

export const EXAMPLES: readonly WebhookExample[] = [
  {
    title: 'Deny ConfigMaps labelled reject=yes',
    kind: 'validating',
    path: 'webhooks/deny-rejected',
    name: 'deny-rejected',
    resources: 'configmaps',
    body: `// Validating: deny ConfigMaps labelled reject=yes, allow everything else.
const labels = request.object?.metadata?.labels ?? {};
if (labels.reject === 'yes') {
  return { allowed: false, status: { code: 403, message: 'ConfigMaps labelled reject=yes are not allowed' } };
}
return { allowed: true };
`,
  },
  {
    title: 'Add the label team=playground',
    kind: 'mutating',
    path: 'webhooks/add-team',
    name: 'add-team',
    resources: 'configmaps',
    body: `// Mutating: add the label team=playground with a JSON Patch (RFC 6902).
const labels = request.object?.metadata?.labels;
if (labels?.team) return { allowed: true };
const patch = labels
  ? [{ op: 'add', path: '/metadata/labels/team', value: 'playground' }]
  : [{ op: 'add', path: '/metadata/labels', value: { team: 'playground' } }];
return { allowed: true, patch, warnings: ['the add-team webhook labelled this object'] };
`,
  },
];

export interface ConfigurationInput {
  kind: WebhookKind;
  name: string;
  url: string;
  /** Resources of the core group (v1), e.g. `configmaps`. */
  resources: string[];
  failurePolicy: FailurePolicy;
  timeoutSeconds: number;
}

export const configurationKind = (kind: WebhookKind) => (kind === 'mutating' ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration');
export const configurationResource = (kind: WebhookKind) => (kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations');
export const webhookName = (name: string) => `${name}.kube-playground.local`;

/** The admissionregistration.k8s.io/v1 configuration calling `url` on creates and updates. */
export function webhookConfiguration(i: ConfigurationInput): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: configurationKind(i.kind),
    metadata: { name: i.name },
    webhooks: [
      {
        name: webhookName(i.name),
        clientConfig: { url: i.url },
        rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: i.resources, scope: '*' }],
        failurePolicy: i.failurePolicy,
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        timeoutSeconds: i.timeoutSeconds,
      },
    ],
  };
}

/** `CREATE configmaps default/bad by kubernetes-admin` */
export function summarizeRequest(r: AdmissionRequest): string {
  const where = r.namespace ? `${r.namespace}/${r.name ?? ''}` : (r.name ?? '');
  return `${r.operation} ${r.resource.resource}${r.subResource ? `/${r.subResource}` : ''} ${where}${r.dryRun ? ' (dry run)' : ''} by ${r.userInfo.username}`;
}

/** `denied (403): message`, `allowed, patch: add /metadata/labels/team`, with warnings. */
export function summarizeResponse(res: AdmissionResponse, ops: unknown[] = []): string {
  const status = res.status?.message ? `: ${res.status.message}` : '';
  let text = res.allowed ? 'allowed' : `denied${res.status?.code ? ` (${res.status.code})` : ''}${status}`;
  if (ops.length) text += `, patch: ${ops.map((o) => `${(o as { op?: string }).op} ${(o as { path?: string }).path}`).join('; ')}`;
  if (res.warnings?.length) text += `, warnings: ${res.warnings.join('; ')}`;
  return text;
}
