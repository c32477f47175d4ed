// A Deployment's ReplicaSets as kube's deployment controller manages them
// (getAllReplicaSetsAndSyncRevision, scaleReplicaSet, cleanupDeployment): finding the new one
// by template, creating it with the next revision, stamping the replica annotations when it is
// scaled, and deleting old, empty ones beyond revisionHistoryLimit.
import { clone, type Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import type { EventRecorder } from './events';
import { DESIRED_REPLICAS, MAX_REPLICAS, POD_TEMPLATE_HASH, REVISION, REVISION_HISTORY, copiedAnnotations, equalIgnoreHash, maxSurgeOf, podTemplateHash, replicasOf, revisionOf } from './deployment-util';
import { ownerRefTo } from './pods';

export interface RolloutState {
  d: Obj;
  newRS?: Obj;
  oldRSs: Obj[];
  /** The new ReplicaSet was made by this sync. */
  created?: boolean;
}

export class ReplicaSetWriter {
  constructor(
    private readonly client: ApiClient,
    private readonly events: EventRecorder,
  ) {}

  private rsPath(rs: Obj): string {
    return `/apis/apps/v1/namespaces/${rs.metadata.namespace}/replicasets/${rs.metadata.name}`;
  }

  /**
   * The ReplicaSet whose template equals the Deployment's (the oldest, when several do), the
   * others, and — when `create` — a new one made for the template. An existing new ReplicaSet
   * whose revision is behind takes the next revision; the Deployment's revision annotation
   * follows it (written with the status, as kube does).
   */
  async resolve(d: Obj, rsList: Obj[], create: boolean): Promise<RolloutState> {
    const sorted = [...rsList].sort(byCreation);
    const newRS = sorted.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
    const oldRSs = sorted.filter((rs) => rs !== newRS);
    const maxOld = Math.max(0, ...oldRSs.map(revisionOf));
    const newRevision = String(maxOld + 1);
    if (newRS) {
      let rs = newRS;
      const annotations = { ...(rs.metadata.annotations ?? {}) } as Record<string, string>;
      let changed = false;
      for (const [k, v] of Object.entries(copiedAnnotations(d))) {
        if (annotations[k] !== v) {
          annotations[k] = v;
          changed = true;
        }
      }
      if (revisionOf(rs) < maxOld + 1) {
        // A rollback to this ReplicaSet: its earlier revision numbers are kept in revision-history.
        const history = withRevisionHistory(annotations[REVISION], annotations[REVISION_HISTORY]);
        if (history !== undefined) annotations[REVISION_HISTORY] = history;
        annotations[REVISION] = newRevision;
        changed = true;
      }
      const minReady = d.spec?.minReadySeconds ?? 0;
      if (changed || (rs.spec?.minReadySeconds ?? 0) !== minReady) {
        rs = await this.client.update(this.rsPath(rs), { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { ...rs.metadata, annotations }, spec: { ...rs.spec, minReadySeconds: minReady || undefined } });
      }
      return { d, newRS: rs, oldRSs };
    }
    if (!create) return { d, oldRSs };
    const hash = podTemplateHash(d.spec.template, d.status?.collisionCount);
    const template = clone(d.spec.template);
    template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH]: hash } };
    const selector = clone(d.spec.selector ?? {});
    selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH]: hash };
    const replicas = newReplicaCount(d, [...oldRSs], undefined);
    const rs: Obj = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: template.metadata.labels,
        annotations: { ...copiedAnnotations(d), [DESIRED_REPLICAS]: String(d.spec.replicas ?? 1), [MAX_REPLICAS]: String(Number(d.spec.replicas ?? 1) + maxSurgeOf(d)), [REVISION]: newRevision },
        ownerReferences: [ownerRefTo(d, 'apps/v1', 'Deployment')],
      },
      spec: { replicas, selector, template },
    };
    if (d.spec.minReadySeconds) rs.spec.minReadySeconds = d.spec.minReadySeconds;
    let created: Obj;
    try {
      created = await this.client.create(`/apis/apps/v1/namespaces/${d.metadata.namespace}/replicasets`, rs);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 409)) throw err;
      // The name is taken. Ours (same template) is simply the new ReplicaSet; another template's
      // is a hash collision: kube counts it in status.collisionCount, which changes the hash.
      const existing = await this.client.get(`/apis/apps/v1/namespaces/${d.metadata.namespace}/replicasets/${rs.metadata.name}`);
      const ours = existing.metadata?.ownerReferences?.some((r: Obj) => r.uid === d.metadata.uid);
      if (ours && equalIgnoreHash(existing.spec?.template, d.spec.template)) return { d, newRS: existing, oldRSs };
      const status = { ...(d.status ?? {}), collisionCount: Number(d.status?.collisionCount ?? 0) + 1 };
      await this.client.update(`/apis/apps/v1/namespaces/${d.metadata.namespace}/deployments/${d.metadata.name}/status`, { ...d, status });
      throw new Error(`hash collision with ReplicaSet ${rs.metadata.name}: collisionCount is now ${status.collisionCount}`);
    }
    if (replicas > 0) await this.events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} to ${replicas}`);
    return { d, newRS: created, oldRSs, created: true };
  }

  /** scaleReplicaSet: spec.replicas and the replica annotations, with kube's event. Returns the updated ReplicaSet. */
  async scale(rs: Obj, replicas: number, d: Obj): Promise<Obj> {
    const want = String(d.spec?.replicas ?? 1);
    const max = String(Number(d.spec?.replicas ?? 1) + maxSurgeOf(d));
    const annotations = (rs.metadata.annotations ?? {}) as Record<string, string>;
    if (replicasOf(rs) === replicas && annotations[DESIRED_REPLICAS] === want && annotations[MAX_REPLICAS] === max) return rs;
    const scalingUp = replicas > replicasOf(rs);
    const updated = await this.client.update(this.rsPath(rs), { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { ...rs.metadata, annotations: { ...annotations, [DESIRED_REPLICAS]: want, [MAX_REPLICAS]: max } }, spec: { ...rs.spec, replicas } });
    if (replicasOf(rs) !== replicas) await this.events.record(d, 'Normal', 'ScalingReplicaSet', `Scaled ${scalingUp ? 'up' : 'down'} replica set ${rs.metadata.name} to ${replicas}`);
    return updated;
  }

  /** cleanupDeployment: old ReplicaSets with no replicas beyond revisionHistoryLimit go, oldest first. */
  async cleanup(d: Obj, oldRSs: Obj[]): Promise<void> {
    const limit = Number(d.spec?.revisionHistoryLimit ?? 10);
    const cleanable = oldRSs.filter((rs) => replicasOf(rs) === 0 && Number(rs.status?.replicas ?? 0) === 0 && rs.metadata.generation === rs.status?.observedGeneration && !rs.metadata.deletionTimestamp);
    const excess = oldRSs.length - limit;
    if (excess <= 0) return;
    const victims = cleanable.sort((a, b) => revisionOf(a) - revisionOf(b) || byCreation(a, b)).slice(0, excess);
    for (const rs of victims) {
      try {
        await this.client.delete(this.rsPath(rs));
      } catch (err) {
        if (!(err instanceof ApiCallError && err.code === 404)) throw err;
      }
    }
  }
}

export function byCreation(a: Obj, b: Obj): number {
  const t = (rs: Obj) => Date.parse(String(rs.metadata?.creationTimestamp ?? '')) || 0;
  return t(a) - t(b) || String(a.metadata?.name).localeCompare(String(b.metadata?.name));
}

/** NewRSNewReplicas: how big the new ReplicaSet may be now. */
export function newReplicaCount(d: Obj, allRSs: Obj[], newRS: Obj | undefined): number {
  const replicas = Number(d.spec?.replicas ?? 1);
  if ((d.spec?.strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return replicas;
  const current = allRSs.reduce((n, rs) => n + replicasOf(rs), 0) + (newRS && !allRSs.includes(newRS) ? replicasOf(newRS) : 0);
  const maxTotal = replicas + maxSurgeOf(d);
  if (current >= maxTotal) return replicasOf(newRS);
  const scaleUp = Math.min(maxTotal - current, replicas - replicasOf(newRS));
  return replicasOf(newRS) + scaleUp;
}

/** SetNewReplicaSetAnnotations' maxRevHistoryLengthInChars. */
const MAX_REVISION_HISTORY_CHARS = 2000;

/**
 * The revision-history annotation after `oldRevision` is replaced: the old number appended,
 * dropping the oldest entries to stay within 2000 characters (undefined: nothing to record).
 */
export function withRevisionHistory(oldRevision: string | undefined, history: string | undefined): string | undefined {
  if (!oldRevision) return history;
  const old = (history ?? '').split(',');
  if (!old[0]) return oldRevision;
  let total = (history ?? '').length + oldRevision.length + 1;
  let start = 0;
  while (total > MAX_REVISION_HISTORY_CHARS && start < old.length) {
    total -= old[start].length + 1;
    start++;
  }
  return total <= MAX_REVISION_HISTORY_CHARS ? [...old.slice(start), oldRevision].join(',') : history;
}
