// kube-controller-manager's statefulset controller (v1.23 stateful_set_control.go): pods
// `<set>-<ordinal>` made in order (OrderedReady: each waits for its predecessors to be running
// and available) or all at once (Parallel), claims from volumeClaimTemplates made before their
// pod and kept when the set shrinks, ControllerRevisions for the template, rolling updates from
// the highest ordinal down to the partition (or none with OnDelete), and the set's status.
// Writes as `system:serviceaccount:kube-system:statefulset-controller`.
import { clone, type Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { ApiCallError, type ApiClient } from './client';
import { claimCandidates, claimPods } from './claim-pods';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { REVISION_HASH_LABEL, RevisionWriter, equalRevision, hashRevisionData, newRevisionObject, nextRevision, ownedRevisions, sortRevisions, templatePatch } from './controller-revision';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { controllerRefOf, ownerRefTo } from './pods';
import { KeyQueue } from './queue';
import { applyRevision, claimsFor, identityMatches, isCreated, isFailed, isHealthy, isMemberOf, isRunningAndAvailable, isRunningAndReady, isTerminating, newStatefulSetPod, ordinalOf, POD_NAME_LABEL, podRevision, usesCurrentRevision } from './statefulset-pods';
import { followOwnedPods } from './owned-pods';

const API = '/apis/apps/v1';

export class StatefulSetController implements Controller {
  readonly name = 'statefulset';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private revisionsWriter!: RevisionWriter;
  private sets!: Informer;
  private pods!: Informer;
  private revisions!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('statefulset-controller'));
    this.events = new EventRecorder(this.client, ctx.clock, 'statefulset-controller');
    this.revisionsWriter = new RevisionWriter(this.client);
    this.queue = ctx.queue(new KeyQueue('statefulset-controller', ctx.clock, (key) => this.sync(key)));
    this.sets = await ctx.informer(`${API}/statefulsets`);
    this.pods = await ctx.informer('/api/v1/pods');
    this.revisions = await ctx.informer(`${API}/controllerrevisions`);
    const enqueue = (s: Obj) => this.queue.add(keyOf(s));
    this.sets.addHandlers({ onAdd: enqueue, onUpdate: enqueue });
    // A revision made or renumbered brings its set back (a stale cache made the write conflict).
    const onRevision = (cr: Obj) => {
      const ref = controllerRefOf(cr);
      if (ref?.kind === 'StatefulSet') this.queue.add(`${cr.metadata.namespace}/${ref.name}`);
    };
    followOwnedPods(this.pods, {
      kind: 'StatefulSet',
      enqueue: (key) => this.queue.add(key),
      adopters: (pod) => this.sets.list().filter((s) => s.metadata.namespace === pod.metadata?.namespace && selects(s, pod)).map(keyOf),
    });
    this.revisions.addHandlers({ onAdd: onRevision, onUpdate: onRevision, onDelete: onRevision });
  }

  stop(): void {
    this.queue?.stop();
  }

  private async sync(key: string): Promise<void> {
    const cached = this.sets.get(key);
    if (!cached) return;
    const set = { ...clone(cached), apiVersion: 'apps/v1', kind: 'StatefulSet' } as Obj;
    const sel = set.spec?.selector;
    if (!sel || (!sel.matchLabels && !sel.matchExpressions)) return;
    const pods = await this.claimPods(set);
    const { current, update, collisionCount, revisions } = await this.resolveRevisions(set);
    const status = await this.updateStatefulSet(set, pods, current, update, collisionCount);
    await this.writeStatus(set, status);
    // truncateHistory: keep what live pods run, the current and the update revision.
    const keep = new Set<string>([String(current.metadata.name), String(update.metadata.name)]);
    for (const p of pods) if (podRevision(p)) keep.add(podRevision(p)!);
    await this.revisionsWriter.truncate(revisions, keep, Number(set.spec.revisionHistoryLimit ?? 10));
    const minReady = Number(set.spec.minReadySeconds ?? 0);
    if (minReady > 0 && Number(status.readyReplicas ?? 0) !== Number(status.availableReplicas ?? 0)) this.queue.addAfter(key, minReady * 1000);
  }

  /** getPodsForStatefulSet: members by name that the selector matches, adopting orphans and releasing strays. */
  private async claimPods(set: Obj): Promise<Obj[]> {
    // ClaimPods with isMemberOf as the filter: an owned pod that is not `<set>-<n>` is released too.
    const pods = await claimPods(this.client, set, 'apps/v1', 'StatefulSet', claimCandidates(this.pods, set), (pod) => selects(set, pod) && isMemberOf(set, pod));
    return pods.sort((a, b) => ordinalOf(a) - ordinalOf(b));
  }

  /** getStatefulSetRevisions: the update revision for the current template (made or renumbered as needed) and the current one from status. */
  private async resolveRevisions(set: Obj): Promise<{ current: Obj; update: Obj; collisionCount: number; revisions: Obj[] }> {
    let revisions = sortRevisions(ownedRevisions(this.revisions.list(), set));
    let collisionCount = Number(set.status?.collisionCount ?? 0);
    const candidate = newRevisionObject({ owner: set, apiVersion: 'apps/v1', kind: 'StatefulSet' }, nextRevision(revisions), (set.spec.template?.metadata?.labels ?? {}) as Record<string, string>);
    const equal = revisions.filter((cr) => equalRevision(cr, candidate));
    let update: Obj;
    if (equal.length && equalRevision(revisions[revisions.length - 1], candidate)) {
      // The latest revision is the template already.
      update = revisions[revisions.length - 1];
    } else if (equal.length) {
      // A rollback: the old revision becomes the newest.
      update = await this.revisionsWriter.renumber(equal[equal.length - 1], candidate.revision);
      revisions = revisions.map((cr) => (cr.metadata.name === update.metadata.name ? update : cr));
    } else {
      const made = await this.revisionsWriter.create(candidate, collisionCount, REVISION_HASH_LABEL, (n) => hashRevisionData(templatePatch(set), n), set);
      update = made.revision;
      collisionCount = made.collisionCount;
      if (!revisions.some((cr) => cr.metadata.name === update.metadata.name)) revisions = [...revisions, update];
    }
    const current = revisions.find((cr) => cr.metadata.name === set.status?.currentRevision) ?? update;
    return { current, update, collisionCount, revisions };
  }

  /** updateStatefulSet: one pass of kube's ordinal loop; returns the status it computed. */
  private async updateStatefulSet(set: Obj, pods: Obj[], current: Obj, update: Obj, collisionCount: number): Promise<Obj> {
    const currentSet = applyRevision(set, current);
    const updateSet = applyRevision(set, update);
    const currentName = String(current.metadata.name);
    const updateName = String(update.metadata.name);
    const now = this.ctx.clock.now();
    const minReady = Number(set.spec.minReadySeconds ?? 0);
    const want = Number(set.spec.replicas ?? 1);
    const st = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
    const status = () => ({ observedGeneration: set.metadata.generation, ...st, currentRevision: currentName, updateRevision: updateName, collisionCount });
    const count = (pod: Obj, by: number) => {
      if (podRevision(pod) === currentName) st.currentReplicas += by;
      if (podRevision(pod) === updateName) st.updatedReplicas += by;
    };

    const replicas: (Obj | undefined)[] = new Array(want).fill(undefined);
    const condemned: Obj[] = [];
    let firstUnhealthy: Obj | undefined;
    for (const pod of pods) {
      st.replicas++;
      if (isRunningAndReady(pod)) {
        st.readyReplicas++;
        if (isRunningAndAvailable(pod, minReady, now)) st.availableReplicas++;
      }
      if (isCreated(pod) && !isTerminating(pod)) count(pod, 1);
      const ord = ordinalOf(pod);
      if (ord >= 0 && ord < want) replicas[ord] = pod;
      else if (ord >= 0) condemned.push(pod);
    }
    condemned.sort((a, b) => ordinalOf(a) - ordinalOf(b));
    for (const pod of [...replicas, ...condemned]) {
      if (pod && !firstUnhealthy && !isHealthy(pod)) firstUnhealthy = pod;
    }
    if (set.metadata.deletionTimestamp) return status();

    const monotonic = (set.spec.podManagementPolicy ?? 'OrderedReady') !== 'Parallel';
    const versioned = (ord: number) => (usesCurrentRevision(currentSet, ord) ? newStatefulSetPod(currentSet, ord, currentName) : newStatefulSetPod(updateSet, ord, updateName));
    for (let ord = 0; ord < want; ord++) {
      let pod = replicas[ord];
      if (pod && isFailed(pod)) {
        await this.deletePod(set, pod);
        count(pod, -1);
        st.replicas--;
        pod = undefined;
      }
      if (!pod) {
        const fresh = versioned(ord);
        await this.createPod(set, fresh, ord);
        replicas[ord] = fresh;
        st.replicas++;
        count(fresh, 1);
        if (monotonic) return status();
        continue;
      }
      if (isTerminating(pod) && monotonic) return status();
      if (!isRunningAndReady(pod) && monotonic) return status();
      if (!isRunningAndAvailable(pod, minReady, now) && monotonic) return status();
      if (!identityMatches(set, pod)) await this.fixIdentity(pod);
    }

    // Scale down: highest ordinal first, waiting on each in the ordered policy.
    for (let i = condemned.length - 1; i >= 0; i--) {
      const pod = condemned[i];
      if (isTerminating(pod)) {
        if (monotonic) return status();
        continue;
      }
      if (monotonic && pod !== firstUnhealthy && (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, now))) return status();
      await this.deletePod(set, pod);
      count(pod, -1);
      if (monotonic) return status();
    }

    if ((set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'OnDelete') return status();
    // Rolling update: the highest ordinal not at the update revision goes, one at a time, down to the partition.
    const partition = Number(set.spec.updateStrategy?.rollingUpdate?.partition ?? 0);
    for (let ord = want - 1; ord >= partition; ord--) {
      const pod = replicas[ord]!;
      if (podRevision(pod) !== updateName && !isTerminating(pod)) {
        await this.deletePod(set, pod);
        st.currentReplicas--;
        return status();
      }
      if (!isHealthy(pod)) return status();
    }
    return status();
  }

  /** CreateStatefulPod: the claims first (those that exist are kept as they are), then the pod. */
  private async createPod(set: Obj, pod: Obj, ordinal: number): Promise<void> {
    const ns = String(set.metadata.namespace);
    for (const claim of claimsFor(set, ordinal)) {
      const path = `/api/v1/namespaces/${ns}/persistentvolumeclaims`;
      if (await this.client.getOrUndefined(`${path}/${claim.metadata.name}`)) continue;
      try {
        await this.client.create(path, claim);
        await this.events.record(set, 'Normal', 'SuccessfulCreate', `create Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
      } catch (err) {
        if (err instanceof ApiCallError && err.code === 409) continue;
        await this.events.record(set, 'Warning', 'FailedCreate', `create Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${message(err)}`);
        throw err;
      }
    }
    try {
      await this.client.create(`/api/v1/namespaces/${ns}/pods`, pod);
      await this.events.record(set, 'Normal', 'SuccessfulCreate', `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    } catch (err) {
      // Already there and not yet in the cache: the informer was behind; its event brings the set
      // back. Already in the cache, it is someone else's pod: reported and retried, as kube does.
      if (err instanceof ApiCallError && err.code === 409 && !this.pods.get(`${ns}/${pod.metadata.name}`)) throw err;
      await this.events.record(set, 'Warning', 'FailedCreate', `create Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${message(err)}`);
      throw new Error(message(err));
    }
  }

  private async deletePod(set: Obj, pod: Obj): Promise<void> {
    try {
      await this.client.delete(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`);
      await this.events.record(set, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return;
      await this.events.record(set, 'Warning', 'FailedDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${message(err)}`);
      throw err;
    }
  }

  /** UpdateStatefulPod, for what a live pod may change: the pod-name label. */
  private async fixIdentity(pod: Obj): Promise<void> {
    await this.client.patch(`/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`, { metadata: { labels: { [POD_NAME_LABEL]: pod.metadata.name } } });
  }

  /** updateStatefulSetStatus: completeRollingUpdate, then a write only when something changed. */
  private async writeStatus(set: Obj, computed: Obj): Promise<void> {
    const status: Obj = { ...computed };
    const rolling = (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    if (rolling && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    // The v1.23 type omits these when zero (availableReplicas and replicas it always writes).
    for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas']) if (!status[k]) delete status[k];
    if (set.status?.conditions) status.conditions = set.status.conditions;
    const old = (set.status ?? {}) as Obj;
    const fields = ['observedGeneration', 'replicas', 'readyReplicas', 'availableReplicas', 'currentReplicas', 'updatedReplicas', 'currentRevision', 'updateRevision', 'collisionCount'];
    if (fields.every((k) => (old[k] ?? 0) === (status[k] ?? 0))) return;
    try {
      await this.client.update(`${API}/namespaces/${set.metadata.namespace}/statefulsets/${set.metadata.name}/status`, { ...set, status });
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
}

function selects(set: Obj, obj: Obj): boolean {
  try {
    return matchesLabels(labelSelectorFromObject(set.spec?.selector), obj.metadata?.labels ?? {});
  } catch {
    return false;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message.replace(/^\w+ \S+: \d+ /, '') : String(err);
}
