// kube-controller-manager's deployment controller (v1.23): rolling updates within maxSurge and
// maxUnavailable, Recreate, proportional scaling, pause and resume, revision history and
// cleanup, and the Deployment's status and conditions. `kubectl rollout undo` needs nothing
// more: kubectl copies an old ReplicaSet's template into the Deployment, and the ReplicaSet with
// that template becomes the new one with the next revision. Writes as
// `system:serviceaccount:kube-system:deployment-controller`.
import { clone, type Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { controllerRefOf, isActivePod } from './pods';
import { KeyQueue } from './queue';
import { ReplicaSetWriter, byCreation, newReplicaCount, type RolloutState } from './deployment-replicasets';
import { REVISION, fenceposts, isRollingUpdate, maxSurgeOf, replicasOf, revisionOf, sum, DESIRED_REPLICAS, getCondition, newCondition, setCondition } from './deployment-util';
import { calculateStatus, deploymentComplete, pausedConditionStatus, progressDeadlineAt, rolloutStatus, sameDeploymentStatus, PROGRESSING } from './deployment-status';

export class DeploymentController implements Controller {
  readonly name = 'deployment';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private rsWriter!: ReplicaSetWriter;
  private deployments!: Informer;
  private replicaSets!: Informer;
  private pods!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('deployment-controller'));
    this.events = new EventRecorder(this.client, ctx.clock, 'deployment-controller');
    this.rsWriter = new ReplicaSetWriter(this.client, this.events);
    this.queue = ctx.queue(new KeyQueue('deployment-controller', ctx.clock, (key) => this.sync(key)));
    this.deployments = await ctx.informer('/apis/apps/v1/deployments');
    this.replicaSets = await ctx.informer('/apis/apps/v1/replicasets');
    this.pods = await ctx.informer('/api/v1/pods');
    const enqueue = (d: Obj) => this.queue.add(keyOf(d));
    this.deployments.addHandlers({ onAdd: enqueue, onUpdate: enqueue });
    const onRS = (rs: Obj) => {
      const ref = controllerRefOf(rs);
      if (ref?.kind === 'Deployment') this.queue.add(`${rs.metadata.namespace}/${ref.name}`);
      else if (!ref) for (const d of this.deploymentsSelecting(rs)) enqueue(d);
    };
    this.replicaSets.addHandlers({ onAdd: onRS, onUpdate: onRS, onDelete: onRS });
    // Recreate waits for old pods to be gone: their deletion is news.
    this.pods.addHandlers({
      onDelete: (pod) => {
        const ref = controllerRefOf(pod);
        const rs = ref?.kind === 'ReplicaSet' ? this.replicaSets.get(`${pod.metadata.namespace}/${ref.name}`) : undefined;
        const owner = rs && controllerRefOf(rs);
        if (owner?.kind === 'Deployment') this.queue.add(`${pod.metadata.namespace}/${owner.name}`);
      },
    });
  }

  stop(): void {
    this.queue?.stop();
  }

  private deploymentsSelecting(rs: Obj): Obj[] {
    return this.deployments.list().filter((d) => d.metadata.namespace === rs.metadata.namespace && selects(d, rs.metadata.labels ?? {}));
  }

  /** The ReplicaSets this Deployment controls, adopting matching orphans. */
  private async claimReplicaSets(d: Obj): Promise<Obj[]> {
    const out: Obj[] = [];
    for (const rs of this.replicaSets.list()) {
      if (rs.metadata.namespace !== d.metadata.namespace) continue;
      const ref = controllerRefOf(rs);
      if (ref?.uid === d.metadata.uid) out.push(rs);
      else if (!ref && !d.metadata.deletionTimestamp && !rs.metadata.deletionTimestamp && selects(d, rs.metadata.labels ?? {})) {
        try {
          const owner = { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid, controller: true, blockOwnerDeletion: true };
          out.push(await this.client.patch(`/apis/apps/v1/namespaces/${rs.metadata.namespace}/replicasets/${rs.metadata.name}`, { metadata: { ownerReferences: [owner], uid: rs.metadata.uid } }));
        } catch (err) {
          if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 409 || err.code === 422))) throw err;
        }
      }
    }
    return out;
  }

  private async sync(key: string): Promise<void> {
    const cached = this.deployments.get(key);
    if (!cached) return;
    // kube's DeepCopy, made shallow where nothing below writes: the sync and its helpers build
    // new metadata, annotations, conditions and ReplicaSet templates instead of changing the
    // Deployment's, and the status (which they read and copy) is the one part deep-copied.
    // The spec's template stays the informer's object, so comparing it with the ReplicaSets'
    // templates reuses their texts (deployment-util's hashless texts, kept per object).
    let d: Obj = { ...cached, apiVersion: 'apps/v1', kind: 'Deployment', metadata: { ...cached.metadata } };
    if (cached.spec) d.spec = { ...cached.spec };
    if (cached.status) d.status = clone(cached.status);
    const sel = d.spec?.selector;
    if (!sel || (!sel.matchLabels && !sel.matchExpressions)) {
      await this.events.record(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      return;
    }
    const rsList = await this.claimReplicaSets(d);
    if (d.metadata.deletionTimestamp) return this.syncStatusOnly(d, rsList);
    const paused = pausedConditionStatus(d, this.ctx.clock.now());
    if (paused) d = await this.writeStatus(d, paused);
    if (d.spec.paused) return this.syncScale(d, rsList);
    if (await this.isScalingEvent(d, rsList)) return this.syncScale(d, rsList);
    if (isRollingUpdate(d)) return this.rolloutRolling(d, rsList);
    return this.rolloutRecreate(d, rsList);
  }

  private async writeStatus(d: Obj, status: Obj, revision?: string): Promise<Obj> {
    const annotations = { ...(d.metadata.annotations ?? {}) } as Record<string, string>;
    if (revision !== undefined) annotations[REVISION] = revision;
    const body = { ...d, metadata: { ...d.metadata, annotations }, status };
    const updated = await this.client.update(`/apis/apps/v1/namespaces/${d.metadata.namespace}/deployments/${d.metadata.name}/status`, body);
    return { ...updated, apiVersion: 'apps/v1', kind: 'Deployment' };
  }

  /** Resolves the new ReplicaSet and, like kube, records a new one (or the first sight of one) on the Deployment. */
  private async resolve(d: Obj, rsList: Obj[], create: boolean): Promise<RolloutState> {
    const state = await this.rsWriter.resolve(d, rsList, create);
    const revision = state.newRS ? String(revisionOf(state.newRS)) : undefined;
    const status = clone(d.status ?? {}) as Obj;
    let needsWrite = revision !== undefined && d.metadata.annotations?.[REVISION] !== revision;
    const hasDeadline = d.spec?.progressDeadlineSeconds !== undefined && d.spec.progressDeadlineSeconds !== 2147483647;
    if (state.created && hasDeadline) {
      setCondition(status, newCondition(PROGRESSING, 'True', 'NewReplicaSetCreated', `Created new replica set "${state.newRS!.metadata.name}"`, this.ctx.clock.now()));
      needsWrite = true;
    } else if (state.newRS && hasDeadline && !getCondition(status, PROGRESSING)) {
      setCondition(status, newCondition(PROGRESSING, 'True', 'FoundNewReplicaSet', `Found new replica set "${state.newRS.metadata.name}"`, this.ctx.clock.now()));
      needsWrite = true;
    }
    const dd = needsWrite ? await this.writeStatus(d, status, revision ?? d.metadata.annotations?.[REVISION]) : d;
    return { ...state, d: dd };
  }

  private async isScalingEvent(d: Obj, rsList: Obj[]): Promise<boolean> {
    const { newRS, oldRSs } = await this.resolve(d, rsList, false);
    const want = String(d.spec.replicas ?? 1);
    return [...oldRSs, ...(newRS ? [newRS] : [])].some((rs) => replicasOf(rs) > 0 && rs.metadata.annotations?.[DESIRED_REPLICAS] !== undefined && rs.metadata.annotations[DESIRED_REPLICAS] !== want);
  }

  private async syncStatusOnly(d: Obj, rsList: Obj[]): Promise<void> {
    const { newRS, oldRSs, d: dd } = await this.resolve(d, rsList, false);
    await this.syncDeploymentStatus(dd, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
  }

  private async syncDeploymentStatus(d: Obj, allRSs: Obj[], newRS: Obj | undefined): Promise<void> {
    const status = calculateStatus(d, allRSs, newRS, this.ctx.clock.now());
    if (!sameDeploymentStatus(d.status, status)) await this.writeStatus(d, status);
  }

  /** sync: scaling (also of a paused Deployment), then cleanup when paused, then status. */
  private async syncScale(d0: Obj, rsList: Obj[]): Promise<void> {
    const state = await this.resolve(d0, rsList, false);
    const d = state.d;
    const all = await this.scale(d, state.newRS, state.oldRSs);
    if (d.spec.paused) await this.rsWriter.cleanup(d, all.filter((rs) => rs !== all.find((x) => x.metadata.uid === state.newRS?.metadata.uid)));
    const newRS = all.find((x) => x.metadata.uid === state.newRS?.metadata.uid);
    await this.syncDeploymentStatus(d, all, newRS);
  }

  /** scale: the one active ReplicaSet takes the new size; otherwise the change is shared out in proportion. */
  private async scale(d: Obj, newRS: Obj | undefined, oldRSs: Obj[]): Promise<Obj[]> {
    const replicas = Number(d.spec.replicas ?? 1);
    let all = [...oldRSs, ...(newRS ? [newRS] : [])];
    const active = all.filter((rs) => replicasOf(rs) > 0);
    const only = active.length === 1 ? active[0] : active.length === 0 ? (newRS ?? [...all].sort(byCreation).pop()) : undefined;
    const replace = (old: Obj, updated: Obj) => (all = all.map((rs) => (rs === old ? updated : rs)));
    if (only) {
      replace(only, await this.rsWriter.scale(only, replicas, d));
      return all;
    }
    if (newRS && replicasOf(newRS) === replicas && Number(newRS.status?.availableReplicas ?? 0) === replicas) {
      for (const rs of oldRSs) if (replicasOf(rs) > 0) replace(rs, await this.rsWriter.scale(rs, 0, d));
      return all;
    }
    if (!isRollingUpdate(d)) return all;
    const allowed = replicas + maxSurgeOf(d);
    const current = sum(all, replicasOf);
    let toAdd = allowed - current;
    if (toAdd === 0) return all;
    // Larger (newer on ties) ReplicaSets first when growing, smaller first when shrinking.
    const ordered = [...active].sort((a, b) => (toAdd > 0 ? replicasOf(b) - replicasOf(a) || byCreation(b, a) : replicasOf(a) - replicasOf(b) || byCreation(b, a)));
    const sizes = new Map<Obj, number>();
    let added = 0;
    for (const rs of ordered) {
      const share = Math.trunc((replicasOf(rs) * toAdd) / current);
      sizes.set(rs, replicasOf(rs) + share);
      added += share;
    }
    // The rounding leftover goes to the first (largest) ReplicaSet.
    if (ordered.length) sizes.set(ordered[0], Math.max(0, sizes.get(ordered[0])! + toAdd - added));
    toAdd = 0;
    for (const [rs, size] of sizes) replace(rs, await this.rsWriter.scale(rs, Math.max(0, size), d));
    return all;
  }

  private async rolloutRolling(d0: Obj, rsList: Obj[]): Promise<void> {
    const { d, newRS: created, oldRSs } = await this.resolve(d0, rsList, true);
    let newRS = created!;
    const replicas = Number(d.spec.replicas ?? 1);
    // reconcileNewReplicaSet
    if (replicasOf(newRS) !== replicas) {
      const target = replicasOf(newRS) > replicas ? replicas : newReplicaCount(d, [...oldRSs, newRS], newRS);
      if (target !== replicasOf(newRS)) {
        newRS = await this.rsWriter.scale(newRS, target, d);
        if (target > replicasOf(created)) return this.syncRolloutStatus(d, [...oldRSs, newRS], newRS);
      }
    }
    // reconcileOldReplicaSets
    const olds = await this.reconcileOld(d, oldRSs, newRS);
    if (olds.scaledDown) return this.syncRolloutStatus(d, [...olds.oldRSs, newRS], newRS);
    const all = [...olds.oldRSs, newRS];
    if (deploymentComplete(d, calculateStatus(d, all, newRS, this.ctx.clock.now()))) await this.rsWriter.cleanup(d, olds.oldRSs);
    await this.syncRolloutStatus(d, all, newRS);
  }

  private async reconcileOld(d: Obj, oldRSs: Obj[], newRS: Obj): Promise<{ oldRSs: Obj[]; scaledDown: boolean }> {
    let olds = [...oldRSs];
    const oldCount = sum(olds, replicasOf);
    if (oldCount === 0) return { oldRSs: olds, scaledDown: false };
    const replicas = Number(d.spec.replicas ?? 1);
    const { maxUnavailable } = fenceposts(d);
    const minAvailable = replicas - Math.min(maxUnavailable, replicas);
    const allCount = oldCount + replicasOf(newRS);
    const newUnavailable = replicasOf(newRS) - Number(newRS.status?.availableReplicas ?? 0);
    const maxScaledDown = allCount - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return { oldRSs: olds, scaledDown: false };
    let total = 0;
    // cleanupUnhealthyReplicas: unavailable old pods go first, they count for nothing.
    let budget = maxScaledDown;
    for (const rs of [...olds].sort(byCreation)) {
      if (budget <= 0) break;
      const unhealthy = replicasOf(rs) - Number(rs.status?.availableReplicas ?? 0);
      if (replicasOf(rs) === 0 || unhealthy <= 0) continue;
      const down = Math.min(budget, unhealthy);
      const updated = await this.rsWriter.scale(rs, replicasOf(rs) - down, d);
      olds = olds.map((x) => (x === rs ? updated : x));
      budget -= down;
      total += down;
    }
    // scaleDownOldReplicaSetsForRollingUpdate: then available ones, oldest first, above minAvailable.
    // A ReplicaSet just scaled down may still report the available pods it is deleting; kube
    // sums status.availableReplicas as is, which can briefly take the rollout below
    // minAvailable. Counting no more than spec.replicas per ReplicaSet keeps the promise.
    const available = sum([...olds, newRS], (rs) => Math.min(replicasOf(rs), Number(rs.status?.availableReplicas ?? 0)));
    let remaining = available - minAvailable;
    for (const rs of [...olds].sort(byCreation)) {
      if (remaining <= 0) break;
      if (replicasOf(rs) === 0) continue;
      const down = Math.min(replicasOf(rs), remaining);
      const updated = await this.rsWriter.scale(rs, replicasOf(rs) - down, d);
      olds = olds.map((x) => (x === rs ? updated : x));
      remaining -= down;
      total += down;
    }
    return { oldRSs: olds, scaledDown: total > 0 };
  }

  private async rolloutRecreate(d0: Obj, rsList: Obj[]): Promise<void> {
    let { d, newRS, oldRSs } = await this.resolve(d0, rsList, false);
    let scaled = false;
    for (const rs of oldRSs) {
      if (replicasOf(rs) === 0) continue;
      oldRSs = oldRSs.map((x) => (x === rs ? undefined : x)).filter(Boolean) as Obj[];
      oldRSs.push(await this.rsWriter.scale(rs, 0, d));
      scaled = true;
    }
    if (scaled) return this.syncRolloutStatus(d, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
    // Old pods must be gone before the new ones start.
    const oldUids = new Set(oldRSs.map((rs) => String(rs.metadata.uid)));
    const oldPodsRunning = this.pods.list().some((p) => oldUids.has(String(controllerRefOf(p)?.uid)) && isActivePod(p));
    if (oldPodsRunning || oldRSs.some((rs) => Number(rs.status?.replicas ?? 0) > 0)) return this.syncRolloutStatus(d, [...oldRSs, ...(newRS ? [newRS] : [])], newRS);
    if (!newRS) ({ d, newRS } = await this.resolve(d, rsList, true));
    if (replicasOf(newRS) !== Number(d.spec.replicas ?? 1)) {
      newRS = await this.rsWriter.scale(newRS!, Number(d.spec.replicas ?? 1), d);
      return this.syncRolloutStatus(d, [...oldRSs, newRS], newRS);
    }
    if (deploymentComplete(d, calculateStatus(d, [...oldRSs, newRS!], newRS, this.ctx.clock.now()))) await this.rsWriter.cleanup(d, oldRSs);
    await this.syncRolloutStatus(d, [...oldRSs, newRS!], newRS);
  }

  private async syncRolloutStatus(d: Obj, allRSs: Obj[], newRS: Obj | undefined): Promise<void> {
    const now = this.ctx.clock.now();
    const status = rolloutStatus(d, allRSs, newRS, now);
    if (!sameDeploymentStatus(d.status, status)) await this.writeStatus(d, status);
    // requeueStuckDeployment: look again when the progress deadline passes.
    const deadline = progressDeadlineAt(d, status);
    if (deadline !== undefined && !deploymentComplete(d, status)) this.queue.addAfter(keyOf(d), Math.max(1000, deadline - now + 1000));
  }
}

function selects(d: Obj, labels: Record<string, string>): boolean {
  try {
    return matchesLabels(labelSelectorFromObject(d.spec?.selector), labels);
  } catch {
    return false;
  }
}
