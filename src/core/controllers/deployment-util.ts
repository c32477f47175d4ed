// The pieces of kube's pkg/controller/deployment/util that decide names, annotations,
// conditions and rollout arithmetic: the pod-template hash, revision bookkeeping, maxSurge and
// maxUnavailable resolution, and SetDeploymentCondition's rules for keeping transition times.
import { clone, type Obj } from '../registry/objects';
import { rfc3339Seconds } from './clock';

export const REVISION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS = 'deployment.kubernetes.io/max-replicas';
export const POD_TEMPLATE_HASH = 'pod-template-hash';

/** Annotations a Deployment does not pass on to its ReplicaSets (annotationsToSkip). */
const SKIPPED_ANNOTATIONS = new Set([
  'kubectl.kubernetes.io/last-applied-configuration',
  REVISION,
  REVISION_HISTORY,
  DESIRED_REPLICAS,
  MAX_REPLICAS,
  'deprecated.deployment.rollback.to',
]);

/** rand.SafeEncodeString's alphabet: no vowels, no look-alike digits. */
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/** JSON with keys sorted at every level, so equal templates hash equally whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as Obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Obj)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * ComputeHash's shape: FNV-32a of the template (and the collision count, when there is one),
 * its decimal digits written in the safe alphabet. kube hashes Go's spew dump of the struct;
 * this hashes the template's canonical JSON, so the value differs from a real cluster's but
 * behaves the same (same template, same hash; a collision count changes it).
 */
export function podTemplateHash(template: Obj, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const text = canonical(template) + (collisionCount !== undefined && collisionCount !== null ? String(collisionCount) : '');
  const bytes = new TextEncoder().encode(text);
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [...String(h)].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

/** The template without the pod-template-hash label (EqualIgnoreHash compares these). */
export function templateWithoutHash(template: Obj): Obj {
  const t = clone(template ?? {});
  if (t.metadata?.labels) {
    delete t.metadata.labels[POD_TEMPLATE_HASH];
    if (!Object.keys(t.metadata.labels).length) delete t.metadata.labels;
  }
  if (t.metadata && 'creationTimestamp' in t.metadata && t.metadata.creationTimestamp === null) delete t.metadata.creationTimestamp;
  return t;
}

/**
 * The canonical text of a template without its hash label, kept per template object: a
 * Deployment syncs on each of its ReplicaSet's status writes (hundreds in a large rollout) and
 * compares the same ReplicaSet templates each time. The informer replaces an object on each
 * change and never mutates one, and the controller mutates only its own copies (of which a
 * template compared twice in one sync is computed once).
 */
const hashlessTexts = new WeakMap<object, string>();

function hashlessText(template: Obj): string {
  if (!template || typeof template !== 'object') return canonical(templateWithoutHash(template));
  let text = hashlessTexts.get(template);
  if (text === undefined) {
    text = canonical(templateWithoutHash(template));
    hashlessTexts.set(template, text);
  }
  return text;
}

export function equalIgnoreHash(a: Obj, b: Obj): boolean {
  return hashlessText(a) === hashlessText(b);
}

export function revisionOf(rs: Obj): number {
  const n = Number(rs.metadata?.annotations?.[REVISION] ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** Annotations the Deployment passes to a ReplicaSet it owns. */
export function copiedAnnotations(d: Obj): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((d.metadata?.annotations ?? {}) as Record<string, string>)) if (!SKIPPED_ANNOTATIONS.has(k)) out[k] = v;
  return out;
}

/** intstr.GetScaledValueFromIntOrPercent. */
function scaled(value: unknown, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(String(value ?? ''));
  if (!m) return Number(value) || 0;
  const v = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(v) : Math.floor(v);
}

export function isRollingUpdate(d: Obj): boolean {
  return (d.spec?.strategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
}

/** ResolveFenceposts: maxSurge rounds up, maxUnavailable down, and both zero means one unavailable. */
export function fenceposts(d: Obj): { maxSurge: number; maxUnavailable: number } {
  const replicas = Number(d.spec?.replicas ?? 1);
  const ru = d.spec?.strategy?.rollingUpdate ?? {};
  const maxSurge = scaled(ru.maxSurge ?? '25%', replicas, true);
  let maxUnavailable = scaled(ru.maxUnavailable ?? '25%', replicas, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return { maxSurge, maxUnavailable };
}

/** MaxUnavailable as the Available condition uses it: zero unless rolling, capped at replicas. */
export function maxUnavailableOf(d: Obj): number {
  const replicas = Number(d.spec?.replicas ?? 1);
  if (!isRollingUpdate(d) || replicas === 0) return 0;
  return Math.min(fenceposts(d).maxUnavailable, replicas);
}

export function maxSurgeOf(d: Obj): number {
  return isRollingUpdate(d) ? fenceposts(d).maxSurge : 0;
}

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export function newCondition(type: string, status: string, reason: string, message: string, now: number): DeploymentCondition {
  const at = rfc3339Seconds(now);
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message };
}

export function getCondition(status: Obj, type: string): DeploymentCondition | undefined {
  return ((status.conditions ?? []) as DeploymentCondition[]).find((c) => c.type === type);
}

/** SetDeploymentCondition: same status and reason changes nothing; same status keeps the transition time; the condition moves last. */
export function setCondition(status: Obj, c: DeploymentCondition): void {
  const current = getCondition(status, c.type);
  if (current && current.status === c.status && current.reason === c.reason) return;
  if (current && current.status === c.status) c.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...((status.conditions ?? []) as DeploymentCondition[]).filter((x) => x.type !== c.type), c];
}

export function removeCondition(status: Obj, type: string): void {
  const rest = ((status.conditions ?? []) as DeploymentCondition[]).filter((x) => x.type !== type);
  if (rest.length) status.conditions = rest;
  else delete status.conditions;
}

export function replicasOf(rs: Obj | undefined): number {
  return rs ? Number(rs.spec?.replicas ?? 0) : 0;
}

export function sum(list: readonly Obj[], f: (rs: Obj) => number): number {
  return list.reduce((n, rs) => n + f(rs), 0);
}
