// kube-controller-manager's replicaset controller (v1.23): keeps as many active pods as
// spec.replicas, adopting matching orphans and releasing owned pods that no longer match, and
// reports replicas, fullyLabeledReplicas, readyReplicas, availableReplicas and
// observedGeneration. Writes as `system:serviceaccount:kube-system:replicaset-controller`.
import type { Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { deletionOrder, isActivePod, isPodAvailable, isPodReady, ownerRefTo, podFromTemplate } from './pods';
import { KeyQueue } from './queue';
import { claimCandidates } from './claim-pods';
import { podFacts, PodMemo } from './pod-memo';
import { rfc3339Seconds } from './clock';
import { followOwnedPods, PodExpectations } from './owned-pods';
import { OwnedPodTally, type PodCounts, type TallyBasis } from './owned-pod-tally';

/** kube's burstReplicas: at most this many creates or deletes per sync. */
const BURST_REPLICAS = 500;

/**
 * What the engine manages: kube runs the same ReplicaSetController for ReplicaSets and (in
 * replication_controller.go) for v1 ReplicationControllers, told apart by these.
 */
export interface ReplicaKind {
  /** --controllers name. */
  name: string;
  apiVersion: string;
  kind: string;
  /** Collection path of all namespaces, and the namespaced prefix (`/apis/apps/v1/namespaces`). */
  collection: string;
  namespaced: string;
  resource: string;
  /** The service account it writes as, and its events' source component. */
  account: string;
}

export const REPLICA_SETS: ReplicaKind = { name: 'replicaset', apiVersion: 'apps/v1', kind: 'ReplicaSet', collection: '/apis/apps/v1/replicasets', namespaced: '/apis/apps/v1/namespaces', resource: 'replicasets', account: 'replicaset-controller' };

export class ReplicaSetController implements Controller {
  readonly name: string;
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private replicaSets!: Informer;
  private pods!: Informer;
  private queue!: KeyQueue;
  /** Creates and deletes made and not yet seen by the pod informer (kube's expectations), per ReplicaSet key. */
  private readonly expectations = new PodExpectations();
  /** Per pod object: does it match the selector (keyed by the selector's text), and carry the template's labels. */
  private readonly selected = new PodMemo<boolean>();
  private readonly fullyLabeled = new PodMemo<boolean>();
  /** Each ReplicaSet's active, ready and fully labeled pods, kept from the pod events. */
  private tally!: OwnedPodTally;
  private readonly bases = new WeakMap<Obj, TallyBasis>();

  constructor(private readonly of: ReplicaKind = REPLICA_SETS) {
    this.name = of.name;
  }

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount(this.of.account));
    this.events = new EventRecorder(this.client, ctx.clock, this.of.account);
    this.queue = ctx.queue(new KeyQueue(this.of.account, ctx.clock, (key) => this.sync(key)));
    this.replicaSets = await ctx.informer(this.of.collection);
    this.pods = await ctx.informer('/api/v1/pods');
    this.tally = new OwnedPodTally(this.pods);
    this.replicaSets.addHandlers({
      onAdd: (rs) => this.queue.add(keyOf(rs)),
      onUpdate: (rs) => this.queue.add(keyOf(rs)),
      onDelete: (rs) => {
        this.expectations.forget(keyOf(rs));
        this.tally.forget(String(rs.metadata.uid));
      },
    });
    followOwnedPods(this.pods, {
      kind: this.of.kind,
      enqueue: (key) => this.queue.add(key),
      expectations: this.expectations,
      // An orphan: any ReplicaSet whose selector matches may adopt it.
      adopters: (pod) => this.replicaSets.list().filter((rs) => rs.metadata.namespace === pod.metadata?.namespace && selectorOf(rs, this.of.kind === 'ReplicationController')(pod)).map(keyOf),
    });
  }

  stop(): void {
    this.queue?.stop();
  }

  private async sync(key: string): Promise<void> {
    const cached = this.replicaSets.get(key);
    if (!cached) return;
    // The informer's objects may lack apiVersion and kind; events name the object by them.
    const rs: Obj = { ...cached, apiVersion: this.of.apiVersion, kind: this.of.kind };
    const ns = String(rs.metadata.namespace);
    // The counts and (when pods must go) the active pods are read before the first await, as the
    // pod list a claim returns is: the status reports the pods as the sync found them.
    const claimed = this.claimWithoutWrites(rs, key);
    const active = claimed ? claimed.active : (await this.claimPods(rs)).filter((p) => podFacts(p).active);
    // A failed create or delete is reported in a ReplicaFailure condition, then retried.
    let manageError: Error | undefined;
    if (this.expectations.satisfied(key) && !rs.metadata.deletionTimestamp) {
      try {
        await this.manageReplicas(rs, key, claimed ? claimed.counts.active : active.length, active);
      } catch (err) {
        manageError = err instanceof Error ? err : new Error(String(err));
      }
    }
    // The pass over the claimed pods reads the clock (minReadySeconds) after managing them, as before.
    const counts = claimed ? claimed.counts : this.countStatus(rs, active);
    await this.updateStatus(rs, counts, ns, manageError);
    if (manageError) throw manageError;
  }

  /**
   * The claim when it has nothing to write (no owned pod to release, no orphan to adopt) and the
   * counts need no clock (no minReadySeconds): the tally's counts, and the active pods only when
   * some must be deleted. Undefined when the full claim must run.
   */
  private claimWithoutWrites(rs: Obj, key: string): { counts: PodCounts; active: Obj[] } | undefined {
    if (rs.metadata.deletionTimestamp || Number(rs.spec?.minReadySeconds ?? 0) > 0) return undefined;
    const basis = this.tallyBasis(rs);
    const counts = this.tally.counts(String(rs.metadata.uid), basis);
    if (counts.unmatched > 0) return undefined;
    for (const pod of claimCandidates(this.pods, rs, 'orphans')) {
      if (pod.metadata.namespace === basis.namespace && !pod.metadata.deletionTimestamp && podFacts(pod).active && basis.matches(pod)) return undefined;
    }
    const deleting = this.expectations.satisfied(key) && counts.active > Number(rs.spec?.replicas ?? 1);
    const active = deleting ? claimCandidates(this.pods, rs, 'controlled').filter((p) => p.metadata.namespace === basis.namespace && podFacts(p).active && basis.matches(p)) : [];
    return { counts, active };
  }

  /** What the tally counts against: the selector and template labels as they are now (made once per informer object: its spec is never mutated). */
  private tallyBasis(rs: Obj): TallyBasis {
    const spec = rs.spec as Obj | undefined;
    if (!spec || typeof spec !== 'object') return this.makeTallyBasis(rs);
    let basis = this.bases.get(spec);
    if (!basis || basis.namespace !== String(rs.metadata.namespace)) this.bases.set(spec, (basis = this.makeTallyBasis(rs)));
    return basis;
  }

  private makeTallyBasis(rs: Obj): TallyBasis {
    const selector = selectorOf(rs, this.of.kind === 'ReplicationController');
    const selectorKey = JSON.stringify(rs.spec?.selector ?? null);
    const { labelsKey, hasTemplateLabels } = templateLabelsOf(rs);
    return {
      namespace: String(rs.metadata.namespace),
      key: `${selectorKey}\n${labelsKey}`,
      matches: (pod) => this.selected.get(pod, selectorKey, selector),
      fullyLabeled: (pod) => this.fullyLabeled.get(pod, labelsKey, hasTemplateLabels),
    };
  }

  /** The status counts by a pass over the active pods (the claim's list). */
  private countStatus(rs: Obj, active: Obj[]): PodCounts & { available: number } {
    const now = this.ctx.clock.now();
    const minReadySeconds = Number(rs.spec?.minReadySeconds ?? 0);
    const { labelsKey, hasTemplateLabels } = templateLabelsOf(rs);
    const counts: PodCounts & { available: number } = { active: active.length, ready: 0, fullyLabeled: 0, unmatched: 0, available: 0 };
    for (const p of active) {
      if (this.fullyLabeled.get(p, labelsKey, hasTemplateLabels)) counts.fullyLabeled++;
      if (!podFacts(p).ready) continue;
      counts.ready++;
      // Without minReadySeconds, available is ready (podutil.IsPodAvailable).
      if (!minReadySeconds || isPodAvailable(p, minReadySeconds, now)) counts.available++;
    }
    return counts;
  }

  /** Pods this ReplicaSet controls, after adopting matching orphans and releasing owned pods that no longer match. */
  private async claimPods(rs: Obj): Promise<Obj[]> {
    const uid = String(rs.metadata.uid);
    const out: Obj[] = [];
    const selector = selectorOf(rs, this.of.kind === 'ReplicationController');
    const selectorKey = JSON.stringify(rs.spec?.selector ?? null);
    for (const pod of claimCandidates(this.pods, rs, 'all')) {
      if (pod.metadata.namespace !== rs.metadata.namespace) continue;
      const facts = podFacts(pod);
      const matches = this.selected.get(pod, selectorKey, selector);
      if (facts.hasController && facts.controllerUid === uid) {
        if (matches || rs.metadata.deletionTimestamp) out.push(pod);
        else await this.release(rs, pod);
      } else if (!facts.hasController && matches && !pod.metadata.deletionTimestamp && !rs.metadata.deletionTimestamp && facts.active) {
        if (await this.adopt(rs, pod)) out.push(pod);
      }
    }
    return out;
  }

  private async adopt(rs: Obj, pod: Obj): Promise<boolean> {
    const owner = ownerRefTo(rs, this.of.apiVersion, this.of.kind);
    try {
      await this.client.patch(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { metadata: { ownerReferences: [owner], uid: pod.metadata.uid } });
      return true;
    } catch (err) {
      if (err instanceof ApiCallError && (err.code === 404 || err.code === 409 || err.code === 422)) return false;
      throw err;
    }
  }

  private async release(rs: Obj, pod: Obj): Promise<void> {
    const patch = { metadata: { ownerReferences: [{ $patch: 'delete', uid: rs.metadata.uid }], uid: pod.metadata.uid } };
    try {
      await this.client.patch(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, patch);
    } catch (err) {
      if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 409 || err.code === 422))) throw err;
    }
  }

  /** Creates or deletes pods toward spec.replicas; `active` is needed only when some must go. */
  private async manageReplicas(rs: Obj, key: string, activeCount: number, active: Obj[]): Promise<void> {
    const want = Number(rs.spec?.replicas ?? 1);
    const diff = activeCount - want;
    const ns = String(rs.metadata.namespace);
    if (diff < 0) {
      const count = Math.min(-diff, BURST_REPLICAS);
      const exp = this.expectations.expect(key, count);
      const owner = ownerRefTo(rs, this.of.apiVersion, this.of.kind);
      // Slow start, as kube's: batches of 1, 2, 4, ... so a failing create does not repeat hundreds of times.
      let remaining = count;
      for (let batch = 1; remaining > 0; batch *= 2) {
        const size = Math.min(batch, remaining);
        const results = await Promise.allSettled(Array.from({ length: size }, () => this.client.create(`/api/v1/namespaces/${ns}/pods`, podFromTemplate(rs.spec.template, String(rs.metadata.name), ns, owner))));
        remaining -= size;
        let failed = 0;
        let first: unknown;
        for (const r of results) {
          if (r.status === 'fulfilled') await this.events.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${r.value.metadata.name}`);
          else {
            failed++;
            first ??= r.reason;
            exp.pendingAdds--;
            await this.events.record(rs, 'Warning', 'FailedCreate', `Error creating: ${r.reason instanceof Error ? r.reason.message.replace(/^POST \S+: \d+ /, '') : String(r.reason)}`);
          }
        }
        if (failed) {
          // The creates not attempted are not expected either.
          exp.pendingAdds -= remaining;
          // slowStartBatch returns the first error; its text becomes the condition's message.
          throw new Error(first instanceof Error ? first.message.replace(/^POST \S+: \d+ /, '') : String(first));
        }
      }
    } else if (diff > 0) {
      const victims = [...active].sort(deletionOrder).slice(0, Math.min(diff, BURST_REPLICAS));
      const exp = this.expectations.expect(key, 0, victims.map((p) => String(p.metadata.uid)));
      await Promise.all(
        victims.map(async (pod) => {
          try {
            await this.client.delete(`/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`);
            await this.events.record(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
          } catch (err) {
            exp.deletes.delete(String(pod.metadata.uid));
            if (!(err instanceof ApiCallError && err.code === 404)) throw err;
          }
        }),
      );
    }
  }

  /** `available` absent: every ready pod is available (no minReadySeconds). */
  private async updateStatus(rs: Obj, counts: PodCounts & { available?: number }, ns: string, manageError?: Error): Promise<void> {
    const now = this.ctx.clock.now();
    const minReadySeconds = Number(rs.spec?.minReadySeconds ?? 0);
    const { active, fullyLabeled, ready } = counts;
    const available = counts.available ?? ready;
    const status: Obj = { replicas: active };
    if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
    if (ready) status.readyReplicas = ready;
    if (available) status.availableReplicas = available;
    status.observedGeneration = rs.metadata.generation;
    const conditions = replicaFailure((rs.status?.conditions ?? []) as Obj[], manageError, active - Number(rs.spec?.replicas ?? 1), now);
    if (conditions.length) status.conditions = conditions;
    // Ready pods not yet available become available once minReadySeconds pass: look again then.
    if (minReadySeconds > 0 && ready > available) this.queue.addAfter(keyOf(rs), minReadySeconds * 1000);
    if (sameStatus(rs.status ?? {}, status)) return;
    try {
      await this.client.update(`${this.of.namespaced}/${ns}/${this.of.resource}/${rs.metadata.name}/status`, { ...rs, status });
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return;
      throw err;
    }
  }
}

function sameStatus(a: Obj, b: Obj): boolean {
  const keys = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'];
  return keys.every((k) => (a[k] ?? 0) === (b[k] ?? 0)) && JSON.stringify(a.conditions ?? []) === JSON.stringify(b.conditions ?? []);
}

/**
 * calculateStatus's ReplicaFailure rule: set (FailedCreate or FailedDelete, the error as its
 * message) when managing replicas failed and the condition is absent; removed once it succeeds.
 */
function replicaFailure(conditions: Obj[], err: Error | undefined, diff: number, now: number): Obj[] {
  const present = conditions.some((c) => c.type === 'ReplicaFailure');
  if (err && !present) {
    const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
    return [...conditions, { type: 'ReplicaFailure', status: 'True', lastTransitionTime: rfc3339Seconds(now), reason, message: err.message }];
  }
  if (!err && present) return conditions.filter((c) => c.type !== 'ReplicaFailure');
  return conditions;
}

/** The template's labels as a test of a pod, and their text (which names the test in a memo). */
function templateLabelsOf(rs: Obj): { labelsKey: string; hasTemplateLabels: (pod: Obj) => boolean } {
  const templateLabels = Object.entries((rs.spec?.template?.metadata?.labels ?? {}) as Record<string, string>);
  return { labelsKey: JSON.stringify(templateLabels), hasTemplateLabels: (pod) => templateLabels.every(([k, v]) => pod.metadata?.labels?.[k] === v) };
}

/** The ReplicaSet's selector as a test of a pod, parsed once per sync rather than once per pod. */
function selectorOf(rs: Obj, plainMap: boolean): (pod: Obj) => boolean {
  // A ReplicationController's selector is a plain label map.
  if (plainMap) {
    const map = (rs.spec?.selector ?? {}) as Record<string, string>;
    const entries = Object.entries(map);
    return (pod) => entries.length > 0 && entries.every(([k, v]) => pod.metadata?.labels?.[k] === v);
  }
  if (!rs.spec?.selector || (!rs.spec.selector.matchLabels && !rs.spec.selector.matchExpressions)) return () => false;
  let sel: ReturnType<typeof labelSelectorFromObject>;
  try {
    sel = labelSelectorFromObject(rs.spec.selector);
  } catch {
    return () => false;
  }
  return (pod) => {
    try {
      return matchesLabels(sel, pod.metadata?.labels ?? {});
    } catch {
      return false;
    }
  };
}
