// A StatefulSet's pods as kube's stateful_set_utils.go makes and judges them: the name
// `<set>-<ordinal>`, the identity (the pod-name label, hostname, subdomain), the claims from
// volumeClaimTemplates (`<template>-<set>-<ordinal>`), the revision label, and the health
// checks the ordered policy waits on.
import { clone, type Obj } from '../registry/objects';
import { POD_REVISION_LABEL } from './controller-revision';
import { isPodAvailable, isPodReady, ownerRefTo, podFromTemplate } from './pods';

/** apps.StatefulSetPodNameLabel. */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';

/** getParentNameAndOrdinal: `web-3` → ['web', 3]; anything else → undefined. */
export function parentAndOrdinal(pod: Obj): { parent: string; ordinal: number } | undefined {
  const m = /^(.*)-([0-9]+)$/.exec(String(pod.metadata?.name ?? ''));
  if (!m) return undefined;
  const ordinal = Number(m[2]);
  return Number.isSafeInteger(ordinal) ? { parent: m[1], ordinal } : undefined;
}

export function ordinalOf(pod: Obj): number {
  return parentAndOrdinal(pod)?.ordinal ?? -1;
}

export function isMemberOf(set: Obj, pod: Obj): boolean {
  return parentAndOrdinal(pod)?.parent === set.metadata.name;
}

export function podName(set: Obj, ordinal: number): string {
  return `${set.metadata.name}-${ordinal}`;
}

export function claimName(template: Obj, set: Obj, ordinal: number): string {
  return `${template.metadata?.name}-${set.metadata.name}-${ordinal}`;
}

export function podRevision(pod: Obj): string | undefined {
  return pod.metadata?.labels?.[POD_REVISION_LABEL];
}

export function claimTemplates(set: Obj): Obj[] {
  return (set.spec?.volumeClaimTemplates ?? []) as Obj[];
}

/** getPersistentVolumeClaims: one claim per template, labelled with the set's selector labels. */
export function claimsFor(set: Obj, ordinal: number): Obj[] {
  return claimTemplates(set).map((t) => {
    const claim = clone(t) as Obj;
    claim.apiVersion = 'v1';
    claim.kind = 'PersistentVolumeClaim';
    const labels = { ...(t.metadata?.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) };
    claim.metadata = { ...(claim.metadata ?? {}), name: claimName(t, set, ordinal), namespace: set.metadata.namespace };
    if (Object.keys(labels).length) claim.metadata.labels = labels;
    delete claim.status;
    return claim;
  });
}

/** The set as it was at `revision` (ApplyRevision: the revision's patch replaces spec.template). */
export function applyRevision(set: Obj, revision: Obj): Obj {
  const template = clone(revision.data?.spec?.template ?? set.spec.template) as Obj;
  delete template.$patch;
  if (template.metadata && template.metadata.creationTimestamp === null) delete template.metadata.creationTimestamp;
  return { ...set, spec: { ...set.spec, template } };
}

/** newVersionedStatefulSetPod: the pod for `ordinal` at the given revision of the set. */
export function newStatefulSetPod(versioned: Obj, ordinal: number, revisionName: string): Obj {
  const ns = String(versioned.metadata.namespace);
  const pod = podFromTemplate(versioned.spec.template, String(versioned.metadata.name), ns, ownerRefTo(versioned, 'apps/v1', 'StatefulSet'));
  const name = podName(versioned, ordinal);
  pod.metadata.name = name;
  pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [POD_NAME_LABEL]: name, [POD_REVISION_LABEL]: revisionName };
  pod.spec.hostname = name;
  if (versioned.spec.serviceName) pod.spec.subdomain = versioned.spec.serviceName;
  // updateStorage: each template's volume points at the ordinal's claim, replacing a template volume of the same name.
  const templates = claimTemplates(versioned);
  if (templates.length) {
    const names = new Set(templates.map((t) => String(t.metadata?.name)));
    const volumes = ((pod.spec.volumes ?? []) as Obj[]).filter((v) => !names.has(String(v.name)));
    pod.spec.volumes = [...templates.map((t) => ({ name: t.metadata?.name, persistentVolumeClaim: { claimName: claimName(t, versioned, ordinal) } })), ...volumes];
  }
  return pod;
}

/** The revision a new pod at `ordinal` gets: the current one below the partition (or below currentReplicas without one), else the update revision. */
export function usesCurrentRevision(set: Obj, ordinal: number): boolean {
  const strategy = set.spec?.updateStrategy ?? {};
  if ((strategy.type ?? 'RollingUpdate') !== 'RollingUpdate') return false;
  const partition = strategy.rollingUpdate?.partition;
  if (partition === undefined || partition === null) return ordinal < Number(set.status?.currentReplicas ?? 0);
  return ordinal < Number(partition);
}

export const isCreated = (pod: Obj): boolean => Boolean(pod.metadata?.uid) && pod.status?.phase !== undefined;
export const isTerminating = (pod: Obj): boolean => Boolean(pod.metadata?.deletionTimestamp);
export const isFailed = (pod: Obj): boolean => pod.status?.phase === 'Failed';
export const isRunningAndReady = (pod: Obj): boolean => pod.status?.phase === 'Running' && isPodReady(pod);
export const isRunningAndAvailable = (pod: Obj, minReadySeconds: number, now: number): boolean => pod.status?.phase === 'Running' && isPodAvailable(pod, minReadySeconds, now);
export const isHealthy = (pod: Obj): boolean => isRunningAndReady(pod) && !isTerminating(pod);

/** identityMatches, for the part a live pod can still change: its pod-name label. */
export function identityMatches(set: Obj, pod: Obj): boolean {
  const p = parentAndOrdinal(pod);
  return p !== undefined && p.parent === set.metadata.name && pod.metadata.namespace === set.metadata.namespace && pod.metadata.labels?.[POD_NAME_LABEL] === pod.metadata.name;
}
