// kube-controller-manager's daemonset controller (v1.23 daemon_controller.go and update.go):
// one pod per node that should run it, created pinned to its node by required node affinity
// (the scheduler binds it) with the daemon tolerations; ControllerRevisions of the template;
// RollingUpdate within maxUnavailable and maxSurge, or OnDelete; and the DaemonSet's status.
// Writes as `system:serviceaccount:kube-system:daemon-set-controller`, events as
// `daemonset-controller`.
import { clone, type Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { ApiCallError, type ApiClient } from './client';
import { claimCandidates, claimPods } from './claim-pods';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { POD_REVISION_LABEL, RevisionWriter, equalRevision, newRevisionObject, nextRevision, ownedRevisions, revisionNumber, sortRevisions } from './controller-revision';
import { daemonPodTemplate, pinToNode, targetNodeName } from './daemonset-nodes';
import { daemonSetStatus, managePlan, rollingUpdatePlan, type Plan } from './daemonset-plan';
import { podTemplateHash } from './deployment-util';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { controllerRefOf, ownerRefTo, podFromTemplate } from './pods';
import { KeyQueue } from './queue';
import { followOwnedPods, PodExpectations } from './owned-pods';

const API = '/apis/apps/v1';
/** The daemonset controller's burstReplicas. */
const BURST_REPLICAS = 250;
const FAILED_POD_BACKOFF_INITIAL = 1000;
const FAILED_POD_BACKOFF_MAX = 15 * 60_000;

export class DaemonSetController implements Controller {
  readonly name = 'daemonset';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private revisionsWriter!: RevisionWriter;
  private sets!: Informer;
  private pods!: Informer;
  private nodes!: Informer;
  private revisions!: Informer;
  private queue!: KeyQueue;
  /** Creates and deletes made and not yet seen by the pod informer (kube's expectations), per DaemonSet key. */
  private readonly expectations = new PodExpectations();
  /** Per DaemonSet and node: when a failed pod was last deleted, and the back-off since. */
  private readonly backoff = new Map<string, { at: number; delay: number }>();

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('daemon-set-controller'));
    this.events = new EventRecorder(this.client, ctx.clock, 'daemonset-controller');
    this.revisionsWriter = new RevisionWriter(this.client);
    this.queue = ctx.queue(new KeyQueue('daemonset-controller', ctx.clock, (key) => this.sync(key)));
    this.sets = await ctx.informer(`${API}/daemonsets`);
    this.pods = await ctx.informer('/api/v1/pods');
    this.nodes = await ctx.informer('/api/v1/nodes');
    this.revisions = await ctx.informer(`${API}/controllerrevisions`);
    const enqueue = (ds: Obj) => this.queue.add(keyOf(ds));
    this.sets.addHandlers({ onAdd: enqueue, onUpdate: enqueue, onDelete: (ds) => this.expectations.forget(keyOf(ds)) });
    const enqueueAll = () => this.sets.list().forEach(enqueue);
    this.nodes.addHandlers({ onAdd: enqueueAll, onUpdate: (n, old) => nodeChanged(n, old) && enqueueAll(), onDelete: enqueueAll });
    followOwnedPods(this.pods, {
      kind: 'DaemonSet',
      enqueue: (key) => this.queue.add(key),
      expectations: this.expectations,
      adopters: (pod) => this.sets.list().filter((ds) => ds.metadata.namespace === pod.metadata?.namespace && selects(ds, pod)).map(keyOf),
    });
    const onRevision = (cr: Obj) => {
      const ref = controllerRefOf(cr);
      if (ref?.kind === 'DaemonSet') this.queue.add(`${cr.metadata.namespace}/${ref.name}`);
    };
    this.revisions.addHandlers({ onAdd: onRevision, onUpdate: onRevision, onDelete: onRevision });
  }

  stop(): void {
    this.queue?.stop();
  }

  /**
   * failedPodsBackoff (1 s doubling to 15 min, per DaemonSet and node): true when a failed pod
   * may be deleted now, which starts the next back-off; false queues the DaemonSet for when the
   * current one ends.
   */
  private failedPodBackoff(key: string, node: string): boolean {
    const now = this.ctx.clock.now();
    const id = `${key}/${node}`;
    const entry = this.backoff.get(id);
    if (entry && now - entry.at < entry.delay) {
      this.queue.addAfter(key, entry.delay - (now - entry.at));
      return false;
    }
    const stale = !entry || now - entry.at > 2 * FAILED_POD_BACKOFF_MAX;
    this.backoff.set(id, { at: now, delay: stale ? FAILED_POD_BACKOFF_INITIAL : Math.min(entry!.delay * 2, FAILED_POD_BACKOFF_MAX) });
    return true;
  }

  private async sync(key: string): Promise<void> {
    const cached = this.sets.get(key);
    if (!cached) return;
    const ds = { ...clone(cached), apiVersion: 'apps/v1', kind: 'DaemonSet' } as Obj;
    const sel = ds.spec?.selector;
    if (!sel || (!sel.matchLabels && !sel.matchExpressions)) {
      await this.events.record(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
      return;
    }
    const nodes = this.nodes.list().sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
    const { cur, old } = await this.constructHistory(ds);
    const hash = String(cur.metadata.labels?.[POD_REVISION_LABEL] ?? cur.metadata.name);
    const pods = await this.claimPods(ds);
    if (!this.expectations.satisfied(key) || ds.metadata.deletionTimestamp) return this.writeStatus(ds, nodes, pods, hash, false);
    const plan = managePlan(ds, nodes, nodesToPods(pods), hash, (node) => this.failedPodBackoff(key, node));
    await this.syncNodes(ds, key, plan, hash);
    if (this.expectations.satisfied(key) && (ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') {
      await this.syncNodes(ds, key, rollingUpdatePlan(ds, nodes, nodesToPods(pods), hash, this.ctx.clock.now()), hash);
    }
    await this.cleanupHistory(ds, old, pods);
    await this.writeStatus(ds, nodes, pods, hash, true);
  }

  /** The DaemonSet's pods, adopting matching orphans and releasing owned pods that stopped matching. */
  private claimPods(ds: Obj): Promise<Obj[]> {
    return claimPods(this.client, ds, 'apps/v1', 'DaemonSet', claimCandidates(this.pods, ds), (pod) => selects(ds, pod));
  }

  /** constructHistory: the revision whose data is the current template (made, or renumbered to the newest), and the others. */
  private async constructHistory(ds: Obj): Promise<{ cur: Obj; old: Obj[] }> {
    const all = sortRevisions(ownedRevisions(this.revisions.list(), ds));
    const labels = (ds.spec.template?.metadata?.labels ?? {}) as Record<string, string>;
    const candidate = newRevisionObject({ owner: ds, apiVersion: 'apps/v1', kind: 'DaemonSet' }, 0, labels, ds.metadata.annotations);
    const current = all.filter((cr) => equalRevision(cr, candidate));
    const old = all.filter((cr) => !current.includes(cr));
    const next = nextRevision(old);
    if (!current.length) {
      candidate.revision = next;
      const made = await this.revisionsWriter.create(candidate, Number(ds.status?.collisionCount ?? 0), POD_REVISION_LABEL, (n) => podTemplateHash(ds.spec.template, n || undefined), ds);
      if (made.collisionCount !== Number(ds.status?.collisionCount ?? 0)) await this.client.update(`${API}/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}/status`, { ...ds, status: { ...(ds.status ?? {}), collisionCount: made.collisionCount } });
      return { cur: made.revision, old };
    }
    // dedupCurHistories: the newest of equal revisions stays; the others go.
    const keep = current[current.length - 1];
    for (const dup of current.slice(0, -1)) await this.deleteRevision(dup);
    const cur = revisionNumber(keep) < next ? await this.revisionsWriter.renumber(keep, next) : keep;
    return { cur, old };
  }

  private async deleteRevision(cr: Obj): Promise<void> {
    try {
      await this.client.delete(`${API}/namespaces/${cr.metadata.namespace}/controllerrevisions/${cr.metadata.name}`);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }

  /** cleanupHistory: old revisions beyond revisionHistoryLimit, oldest first, skipping those a live pod runs. */
  private async cleanupHistory(ds: Obj, old: Obj[], pods: Obj[]): Promise<void> {
    let toKill = old.length - Number(ds.spec.revisionHistoryLimit ?? 10);
    if (toKill <= 0) return;
    const live = new Set(pods.map((p) => p.metadata.labels?.[POD_REVISION_LABEL]).filter(Boolean));
    for (const cr of sortRevisions(old)) {
      if (toKill <= 0) break;
      if (live.has(cr.metadata.labels?.[POD_REVISION_LABEL])) continue;
      await this.deleteRevision(cr);
      toKill--;
    }
  }

  /** syncNodes: deletes and creates within the burst limit, creates in slow-start batches, each expected until the informer sees it. */
  private async syncNodes(ds: Obj, key: string, plan: Plan, hash: string): Promise<void> {
    for (const f of plan.failed) await this.events.record(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${ds.metadata.namespace}/${f.pod} on node ${f.node}, will try to kill it`);
    const create = plan.create.slice(0, BURST_REPLICAS);
    const podsByName = new Map(this.pods.list().filter((p) => p.metadata.namespace === ds.metadata.namespace).map((p) => [String(p.metadata.name), p]));
    const victims = plan.delete.slice(0, BURST_REPLICAS).map((n) => podsByName.get(n)).filter((p): p is Obj => Boolean(p));
    if (!create.length && !victims.length) return;
    const exp = this.expectations.expect(key, create.length, victims.map((p) => String(p.metadata.uid)));
    const ns = String(ds.metadata.namespace);
    const template = daemonPodTemplate(ds, hash);
    const owner = ownerRefTo(ds, 'apps/v1', 'DaemonSet');
    let remaining = [...create];
    for (let batch = 1; remaining.length; batch *= 2) {
      const nodes = remaining.slice(0, batch);
      remaining = remaining.slice(batch);
      const results = await Promise.allSettled(
        nodes.map((node) => {
          const pod = podFromTemplate(template, String(ds.metadata.name), ns, owner);
          pinToNode(pod.spec, node);
          return this.client.create(`/api/v1/namespaces/${ns}/pods`, pod);
        }),
      );
      let failed = 0;
      for (const r of results) {
        if (r.status === 'fulfilled') await this.events.record(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${r.value.metadata.name}`);
        else {
          failed++;
          exp.pendingAdds--;
          await this.events.record(ds, 'Warning', 'FailedCreate', `Error creating: ${r.reason instanceof Error ? r.reason.message.replace(/^POST \S+: \d+ /, '') : String(r.reason)}`);
        }
      }
      if (failed) {
        exp.pendingAdds -= remaining.length;
        throw new Error(`failed to create ${failed} daemon pods`);
      }
    }
    await Promise.all(
      victims.map(async (pod) => {
        try {
          await this.client.delete(`/api/v1/namespaces/${ns}/pods/${pod.metadata.name}`);
          await this.events.record(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        } catch (err) {
          exp.deletes.delete(String(pod.metadata.uid));
          if (!(err instanceof ApiCallError && err.code === 404)) throw err;
        }
      }),
    );
  }

  /** storeDaemonSetStatus: written only when a count (or, after a full sync, the generation) changed. */
  private async writeStatus(ds: Obj, nodes: Obj[], pods: Obj[], hash: string, observed: boolean): Promise<void> {
    const now = this.ctx.clock.now();
    const counts = daemonSetStatus(ds, nodes, nodesToPods(pods.filter((p) => !p.metadata.deletionTimestamp)), hash, now);
    const old = (ds.status ?? {}) as Obj;
    const status: Obj = { ...counts };
    const generation = observed ? ds.metadata.generation : old.observedGeneration;
    if (generation !== undefined) status.observedGeneration = generation;
    if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
    if (old.conditions) status.conditions = old.conditions;
    const minReady = Number(ds.spec.minReadySeconds ?? 0);
    if (minReady > 0 && counts.numberReady !== (counts.numberAvailable ?? 0)) this.queue.addAfter(keyOf(ds), minReady * 1000);
    const fields = ['desiredNumberScheduled', 'currentNumberScheduled', 'numberMisscheduled', 'numberReady', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'observedGeneration'];
    if (fields.every((k) => (old[k] ?? 0) === (status[k] ?? 0))) return;
    try {
      await this.client.update(`${API}/namespaces/${ds.metadata.namespace}/daemonsets/${ds.metadata.name}/status`, { ...ds, status });
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
}

/** getNodesToDaemonPods: the pods grouped by the node each is bound to or meant for. */
function nodesToPods(pods: Obj[]): Map<string, Obj[]> {
  const out = new Map<string, Obj[]>();
  for (const pod of pods) {
    const node = targetNodeName(pod);
    if (node === undefined) continue;
    const list = out.get(node) ?? [];
    list.push(pod);
    out.set(node, list);
  }
  return out;
}

/** A node change that can change where daemon pods belong: labels, taints, unschedulable, readiness. */
function nodeChanged(n: Obj, old: Obj): boolean {
  const ready = (x: Obj) => ((x.status?.conditions ?? []) as Obj[]).find((c) => c.type === 'Ready')?.status;
  return JSON.stringify(n.metadata?.labels) !== JSON.stringify(old.metadata?.labels) || JSON.stringify(n.spec) !== JSON.stringify(old.spec) || ready(n) !== ready(old);
}

function selects(ds: Obj, pod: Obj): boolean {
  try {
    return matchesLabels(labelSelectorFromObject(ds.spec?.selector), pod.metadata?.labels ?? {});
  } catch {
    return false;
  }
}
