// The PodSecurity admission plug-in (pod-security-admission), enforce mode: a namespace labelled
// pod-security.kubernetes.io/enforce=baseline|restricted refuses pods that break the level, with
// the checks' own wording. The warn and audit modes (pod-security-modes.ts) reuse these checks.
import type { RegistryContext } from '../registry/context';
import type { Obj } from '../registry/objects';
import { objectKey } from '../registry/catalog';
import { forbidden } from '../meta/status';
import type { KV } from '../storage/types';

type Level = 'privileged' | 'baseline' | 'restricted';
interface Finding {
  /** The check id; results are listed in id order, as pod-security-admission does. */
  id: string;
  reason: string;
  detail: string;
}

const BASELINE_CAPABILITIES = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const RESTRICTED_VOLUMES = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);

const quoted = (names: string[]) => names.map((n) => JSON.stringify(n)).join(', ');
/** `container "a"` / `containers "a", "b"`. */
const containersText = (names: string[]) => `${names.length === 1 ? 'container' : 'containers'} ${quoted(names)}`;

function allContainers(spec: Obj): Obj[] {
  return [...((spec.initContainers ?? []) as Obj[]), ...((spec.containers ?? []) as Obj[]), ...((spec.ephemeralContainers ?? []) as Obj[])];
}

function baselineChecks(spec: Obj, cs: Obj[]): Finding[] {
  const out: Finding[] = [];
  const hostNs = ['hostNetwork', 'hostPID', 'hostIPC'].filter((f) => spec[f] === true);
  if (hostNs.length) out.push({ id: 'hostNamespaces', reason: 'host namespaces', detail: hostNs.map((f) => `${f}=true`).join(', ') });
  const privileged = cs.filter((c) => c.securityContext?.privileged === true).map((c) => String(c.name));
  if (privileged.length) out.push({ id: 'privileged', reason: 'privileged', detail: `${containersText(privileged)} must not set securityContext.privileged=true` });
  const hostPaths = ((spec.volumes ?? []) as Obj[]).filter((v) => v.hostPath).map((v) => String(v.name));
  if (hostPaths.length) out.push({ id: 'hostPathVolumes', reason: 'hostPath volumes', detail: `${hostPaths.length === 1 ? 'volume' : 'volumes'} ${quoted(hostPaths)}` });
  const portUsers: string[] = [];
  const ports: string[] = [];
  for (const c of cs) {
    const used = ((c.ports ?? []) as Obj[]).map((p) => p.hostPort).filter((p) => typeof p === 'number' && p !== 0);
    if (used.length) portUsers.push(String(c.name));
    for (const p of used) if (!ports.includes(String(p))) ports.push(String(p));
  }
  if (portUsers.length) out.push({ id: 'hostPorts', reason: 'hostPort', detail: `${containersText(portUsers)} ${portUsers.length === 1 ? 'uses' : 'use'} ${ports.length === 1 ? 'hostPort' : 'hostPorts'} ${ports.join(', ')}` });
  const capUsers: string[] = [];
  const caps: string[] = [];
  for (const c of cs) {
    const bad = ((c.securityContext?.capabilities?.add ?? []) as string[]).filter((cap) => !BASELINE_CAPABILITIES.has(cap));
    if (bad.length) capUsers.push(String(c.name));
    for (const cap of bad) if (!caps.includes(cap)) caps.push(cap);
  }
  if (capUsers.length) out.push({ id: 'capabilities_baseline', reason: 'non-default capabilities', detail: `${containersText(capUsers)} must not include ${quoted(caps)} in securityContext.capabilities.add` });
  return out;
}

function restrictedChecks(spec: Obj, cs: Obj[]): Finding[] {
  const out: Finding[] = [];
  const badVolumes = ((spec.volumes ?? []) as Obj[]).filter((v) => !Object.keys(v).some((k) => RESTRICTED_VOLUMES.has(k))).map((v) => String(v.name));
  if (badVolumes.length) {
    const types = [...new Set(((spec.volumes ?? []) as Obj[]).filter((v) => badVolumes.includes(String(v.name))).flatMap((v) => Object.keys(v).filter((k) => k !== 'name')))];
    out.push({ id: 'restrictedVolumes', reason: 'restricted volume types', detail: `${badVolumes.length === 1 ? 'volume' : 'volumes'} ${quoted(badVolumes)} ${badVolumes.length === 1 ? 'uses' : 'use'} restricted volume ${types.length === 1 ? 'type' : 'types'} ${quoted(types)}` });
  }
  const escalating = cs.filter((c) => c.securityContext?.allowPrivilegeEscalation !== false).map((c) => String(c.name));
  if (escalating.length) out.push({ id: 'allowPrivilegeEscalation', reason: 'allowPrivilegeEscalation != false', detail: `${containersText(escalating)} must set securityContext.allowPrivilegeEscalation=false` });
  const notDropping = cs.filter((c) => !((c.securityContext?.capabilities?.drop ?? []) as string[]).includes('ALL')).map((c) => String(c.name));
  const adding = cs.filter((c) => ((c.securityContext?.capabilities?.add ?? []) as string[]).some((cap) => cap !== 'NET_BIND_SERVICE'));
  const capDetails: string[] = [];
  if (notDropping.length) capDetails.push(`${containersText(notDropping)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length) {
    const caps = [...new Set(adding.flatMap((c) => ((c.securityContext?.capabilities?.add ?? []) as string[]).filter((cap) => cap !== 'NET_BIND_SERVICE')))];
    capDetails.push(`${containersText(adding.map((c) => String(c.name)))} must not include ${quoted(caps)} in securityContext.capabilities.add`);
  }
  if (capDetails.length) out.push({ id: 'capabilities_restricted', reason: 'unrestricted capabilities', detail: capDetails.join('; ') });
  const podNonRoot = spec.securityContext?.runAsNonRoot;
  if (podNonRoot === false) out.push({ id: 'runAsNonRoot', reason: 'runAsNonRoot != true', detail: 'pod must not set securityContext.runAsNonRoot=false' });
  else {
    const explicitFalse = cs.filter((c) => c.securityContext?.runAsNonRoot === false).map((c) => String(c.name));
    const unset = podNonRoot === true ? [] : cs.filter((c) => c.securityContext?.runAsNonRoot === undefined || c.securityContext?.runAsNonRoot === null).map((c) => String(c.name));
    const parts: string[] = [];
    if (explicitFalse.length) parts.push(`${containersText(explicitFalse)} must not set securityContext.runAsNonRoot=false`);
    if (unset.length) parts.push(`pod or ${containersText(unset)} must set securityContext.runAsNonRoot=true`);
    if (parts.length) out.push({ id: 'runAsNonRoot', reason: 'runAsNonRoot != true', detail: parts.join('; ') });
  }
  const okSeccomp = (t: unknown) => t === 'RuntimeDefault' || t === 'Localhost';
  const podSeccomp = spec.securityContext?.seccompProfile?.type;
  if (podSeccomp !== undefined && !okSeccomp(podSeccomp)) {
    out.push({ id: 'seccompProfile_restricted', reason: 'seccompProfile', detail: `pod must not set securityContext.seccompProfile.type to ${JSON.stringify(podSeccomp)}` });
  } else {
    const unset = podSeccomp === undefined ? cs.filter((c) => c.securityContext?.seccompProfile?.type === undefined).map((c) => String(c.name)) : [];
    const wrong = cs.filter((c) => c.securityContext?.seccompProfile?.type !== undefined && !okSeccomp(c.securityContext.seccompProfile.type)).map((c) => String(c.name));
    const parts: string[] = [];
    if (wrong.length) parts.push(`${containersText(wrong)} must not set securityContext.seccompProfile.type to "Unconfined"`);
    if (unset.length) parts.push(`pod or ${containersText(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
    if (parts.length) out.push({ id: 'seccompProfile_restricted', reason: 'seccompProfile', detail: parts.join('; ') });
  }
  return out;
}

/** The findings of a pod spec against a level, in check-id order. */
export function podSecurityFindings(level: Level, spec: Obj): Finding[] {
  if (level === 'privileged') return [];
  const cs = allContainers(spec);
  const findings = baselineChecks(spec, cs);
  if (level === 'restricted') {
    // The restricted capabilities check replaces the baseline one.
    const restricted = restrictedChecks(spec, cs);
    findings.push(...restricted);
    if (restricted.some((f) => f.id === 'capabilities_restricted')) {
      const i = findings.findIndex((f) => f.id === 'capabilities_baseline');
      if (i >= 0) findings.splice(i, 1);
    }
  }
  return findings.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function parseLevel(v: unknown): Level | undefined {
  return v === 'privileged' || v === 'baseline' || v === 'restricted' ? v : undefined;
}

export type PodSecurityMode = 'enforce' | 'audit' | 'warn';

export interface ModePolicy {
  level: Level;
  version: string;
}

/** The namespace's policy per mode (privileged:latest when unlabelled). */
export type NamespacePolicy = Record<PodSecurityMode, ModePolicy>;

export function policyFromLabels(labels: Record<string, string> | undefined): NamespacePolicy {
  const mode = (m: PodSecurityMode): ModePolicy => ({
    level: parseLevel(labels?.[`pod-security.kubernetes.io/${m}`]) ?? 'privileged',
    version: labels?.[`pod-security.kubernetes.io/${m}-version`] || 'latest',
  });
  return { enforce: mode('enforce'), audit: mode('audit'), warn: mode('warn') };
}

/** The namespace's policy, read from its labels (undefined for a missing namespace). */
export async function namespacePolicy(ctx: RegistryContext, ns: string): Promise<NamespacePolicy | undefined> {
  const namespaces = ctx.catalog.lookup('', 'v1', 'namespaces');
  if (!namespaces || !ns) return undefined;
  const kv = await ctx.mvcc.get(objectKey(namespaces, '', ns));
  if (!kv) return undefined;
  // Every pod-bearing write asks: parse the namespace once per stored revision, not per write.
  let policy = policyByRevision.get(kv);
  if (!policy) policyByRevision.set(kv, (policy = policyFromLabels((JSON.parse(kv.value) as Obj).metadata?.labels)));
  return policy;
}

const policyByRevision = new WeakMap<KV, NamespacePolicy>();

/** `reason (detail), reason (detail)` as pod-security-admission's ForbiddenDetail joins them. */
export function violationText(p: ModePolicy, spec: Obj): string | undefined {
  if (p.level === 'privileged') return undefined;
  const findings = podSecurityFindings(p.level, spec);
  return findings.length ? findings.map((f) => `${f.reason} (${f.detail})`).join(', ') : undefined;
}

export const policyName = (p: ModePolicy) => `${p.level}:${p.version}`;

/** Enforce mode for a pod: Forbidden with the checks' wording. */
export function enforcePodSecurity(policy: NamespacePolicy, pod: Obj): void {
  const text = pod.spec ? violationText(policy.enforce, pod.spec) : undefined;
  if (text) throw forbidden('', 'pods', String(pod.metadata?.name ?? ''), `violates PodSecurity "${policyName(policy.enforce)}": ${text}`);
}

/** Enforce mode for pod creates. */
export async function admitPodSecurity(ctx: RegistryContext, ns: string, pod: Obj): Promise<void> {
  const policy = pod.spec ? await namespacePolicy(ctx, ns) : undefined;
  if (policy) enforcePodSecurity(policy, pod);
}
