// PodSecurity warn and audit modes (v1.23), and which writes PodSecurity looks at: pod creates,
// pod updates that change something the checks read (pod-security-admission's
// isSignificantPodUpdate), and the pod templates of workload resources (warn and audit only).
// Warnings go to the response's Warning headers; the audit violation becomes the
// `pod-security.kubernetes.io/audit` annotation of the request's audit event.
import type { RegistryContext } from '../registry/context';
import type { ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import type { AdmissionAttributes } from '../registry/admission-attributes';
import { enforcePodSecurity, namespacePolicy, policyName, violationText, type NamespacePolicy } from './pod-security';

// Which workloads PodSecurity checks, and where their pod template lives, is in each kind's spec
// (registry/kinds/: podTemplatePath).

/** Subresources of pods PodSecurity ignores (everything else carries a pod). */
const IGNORED_POD_SUBRESOURCES = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

function podTemplateSpec(r: ServedResource, obj: Obj): Obj | undefined {
  let cur: unknown = obj;
  for (const k of r.spec?.podTemplatePath ?? []) cur = (cur as Obj | undefined)?.[k];
  const spec = (cur as Obj | undefined)?.spec;
  return spec && typeof spec === 'object' ? (spec as Obj) : undefined;
}

/** Audit and warn results of one pod spec (warnings only when the request was not denied). */
function auditAndWarn(policy: NamespacePolicy, spec: Obj, attrs: AdmissionAttributes | undefined): void {
  if (!attrs) return;
  const audit = violationText(policy.audit, spec);
  if (audit) attrs.auditAnnotations['pod-security.kubernetes.io/audit'] = `would violate PodSecurity "${policyName(policy.audit)}": ${audit}`;
  const warn = violationText(policy.warn, spec);
  if (warn) attrs.warnings.push(`would violate PodSecurity "${policyName(policy.warn)}": ${warn}`);
}

function evaluatePod(policy: NamespacePolicy, pod: Obj, attrs: AdmissionAttributes | undefined): void {
  try {
    enforcePodSecurity(policy, pod);
  } catch (err) {
    // The audit annotation is recorded for denied requests too; warnings are not added.
    if (attrs && pod.spec) {
      const audit = violationText(policy.audit, pod.spec);
      if (audit) attrs.auditAnnotations['pod-security.kubernetes.io/audit'] = `would violate PodSecurity "${policyName(policy.audit)}": ${audit}`;
    }
    throw err;
  }
  if (pod.spec) auditAndWarn(policy, pod.spec, attrs);
}

const ALL_PRIVILEGED = (p: NamespacePolicy) => p.enforce.level === 'privileged' && p.audit.level === 'privileged' && p.warn.level === 'privileged';

/** Pod creates: enforce, audit and warn. */
export async function admitPodCreate(ctx: RegistryContext, ns: string, pod: Obj, attrs: AdmissionAttributes | undefined): Promise<void> {
  if (attrs && IGNORED_POD_SUBRESOURCES.has(attrs.subresource)) return;
  const policy = await namespacePolicy(ctx, ns);
  if (!policy || ALL_PRIVILEGED(policy)) return;
  evaluatePod(policy, pod, attrs);
}

/** Workload creates and updates: audit and warn on the pod template. */
export async function admitWorkload(ctx: RegistryContext, r: ServedResource, ns: string, obj: Obj, attrs: AdmissionAttributes | undefined): Promise<void> {
  if (!attrs || attrs.subresource) return;
  const spec = podTemplateSpec(r, obj);
  if (!spec) return;
  const policy = await namespacePolicy(ctx, ns);
  if (policy) auditAndWarn(policy, spec, attrs);
}

/** Workload updates: the namespace policy read up front, the template checked inside the write. */
export async function prepareWorkloadUpdate(ctx: RegistryContext, r: ServedResource, ns: string, attrs: AdmissionAttributes | undefined): Promise<((next: Obj) => void) | undefined> {
  if (!attrs || attrs.subresource) return undefined;
  const policy = await namespacePolicy(ctx, ns);
  if (!policy || (policy.audit.level === 'privileged' && policy.warn.level === 'privileged')) return undefined;
  return (next) => {
    const spec = podTemplateSpec(r, next);
    if (spec) auditAndWarn(policy, spec, attrs);
  };
}

function containerChanged(c: Obj, old: Obj | undefined, ann: Obj, oldAnn: Obj): boolean {
  if (!old || c.image !== old.image) return true;
  const key = `container.seccomp.security.alpha.kubernetes.io/${c.name}`;
  return ann[key] !== oldAnn[key];
}

/** Whether a pod update changes something PodSecurity checks (image, seccomp annotations, containers). */
export function isSignificantPodUpdate(pod: Obj, old: Obj): boolean {
  const ann = (pod.metadata?.annotations ?? {}) as Obj;
  const oldAnn = (old.metadata?.annotations ?? {}) as Obj;
  if (ann['seccomp.security.alpha.kubernetes.io/pod'] !== oldAnn['seccomp.security.alpha.kubernetes.io/pod']) return true;
  for (const field of ['containers', 'initContainers']) {
    const cs = (pod.spec?.[field] ?? []) as Obj[];
    const olds = (old.spec?.[field] ?? []) as Obj[];
    if (cs.length !== olds.length) return true;
    if (cs.some((c, i) => containerChanged(c, olds[i], ann, oldAnn))) return true;
  }
  const oldEphemeral = (old.spec?.ephemeralContainers ?? []) as Obj[];
  for (const c of (pod.spec?.ephemeralContainers ?? []) as Obj[]) {
    if (containerChanged(c, oldEphemeral.find((o) => o.name === c.name), ann, oldAnn)) return true;
  }
  return false;
}

/** Pod updates: the namespace policy read up front, checked inside the write when the update matters. */
export async function preparePodUpdate(ctx: RegistryContext, ns: string, attrs: AdmissionAttributes | undefined): Promise<((next: Obj, old: Obj) => void) | undefined> {
  if (attrs && IGNORED_POD_SUBRESOURCES.has(attrs.subresource)) return undefined;
  // Internal writes (controllers) only change status; they are not checked.
  if (!attrs) return undefined;
  const policy = await namespacePolicy(ctx, ns);
  if (!policy || ALL_PRIVILEGED(policy)) return undefined;
  return (next, old) => {
    if (isSignificantPodUpdate(next, old)) evaluatePod(policy, next, attrs);
  };
}
