// kube-controller-manager's horizontalpodautoscaling controller (v1.23 reconcileAutoscaler), as
// the service account horizontal-pod-autoscaler with manager kube-controller-manager. Every HPA
// is reconciled once per resync period (15 s of cluster time; a new or changed HPA waits for its
// turn too, as kube's fixed-interval queue makes it). It reads the target's scale subresource,
// computes the desired count from metrics.k8s.io, stabilizes and rate-limits it, writes the
// target's `scale` (so spec.replicas becomes kube-controller-manager's, subresource scale) and
// then the HPA's status as autoscaling/v1, as v1.23 does: conditions and current metrics travel
// in the autoscaling.alpha.kubernetes.io annotations of that write.
import type { Obj } from '../registry/objects';
import { clone } from '../registry/objects';
import { hpaFromHub, hpaToHub } from '../versions/hpa';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds } from './clock';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { EventRecorder } from './events';
import { keyOf, type Informer } from './informer';
import { KeyQueue } from './queue';
import { ReplicaNormalizer } from './hpa-behavior';
import { ComputeError, computeReplicasForMetrics, statusMessage, type ConditionSetting } from './hpa-metrics';

/** --horizontal-pod-autoscaler-sync-period (default 15s). */
export const HPA_RESYNC_MS = 15_000;

/** apimachinery's semantic equality for our JSON: key order ignored, empty lists and maps equal to absent. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(canonical) : undefined;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Obj)
      .map(([k, x]) => [k, canonical(x)] as const)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return v;
}

export class HorizontalPodAutoscalerController implements Controller {
  readonly name = 'horizontalpodautoscaling';
  private ctx!: ControllerContext;
  private client!: ApiClient;
  private events!: EventRecorder;
  private hpas!: Informer;
  private pods!: Informer;
  private queue!: KeyQueue;
  private readonly normalizer = new ReplicaNormalizer();
  /** The last Warning per HPA and reason: kube's event correlator counts repeats instead of recording them anew. */
  private readonly lastWarnings = new Map<string, string>();

  async start(ctx: ControllerContext): Promise<void> {
    this.ctx = ctx;
    this.client = ctx.client(controllerServiceAccount('horizontal-pod-autoscaler'));
    this.events = new EventRecorder(this.client, ctx.clock, 'horizontal-pod-autoscaler');
    this.queue = ctx.queue(new KeyQueue(this.name, ctx.clock, (key) => this.sync(key)));
    this.pods = await ctx.informer('/api/v1/pods');
    // v1.23's informer and client are autoscaling/v1 (always served); each HPA is read in the v2
    // shape by the same conversion the server uses, as kube converts to its v2 type.
    this.hpas = await ctx.informer('/apis/autoscaling/v1/horizontalpodautoscalers');
    this.hpas.addHandlers({
      onAdd: (hpa) => this.queue.addAfter(keyOf(hpa), HPA_RESYNC_MS),
      onUpdate: (hpa) => this.queue.addAfter(keyOf(hpa), HPA_RESYNC_MS),
      onDelete: (hpa) => {
        this.normalizer.forget(keyOf(hpa));
        for (const k of this.lastWarnings.keys()) if (k.startsWith(`${keyOf(hpa)}|`)) this.lastWarnings.delete(k);
      },
    });
  }

  stop(): void {
    this.queue?.stop();
  }

  private async sync(key: string): Promise<void> {
    const stored = this.hpas.get(key);
    if (!stored || stored.metadata.deletionTimestamp) return;
    const hpa = { ...(hpaToHub(stored, 'v1') as Obj), apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' };
    try {
      await this.reconcile(key, hpa);
    } finally {
      // Every HPA comes back once per resync period, whatever happened (kube re-adds it rate-limited).
      if (this.hpas.get(key)) this.queue.addAfter(key, HPA_RESYNC_MS);
    }
  }

  private warn(key: string, hpa: Obj, reason: string, message: string): void {
    const k = `${key}|${reason}`;
    if (this.lastWarnings.get(k) === message) return;
    this.lastWarnings.set(k, message);
    void this.events.record(hpa, 'Warning', reason, message);
  }

  private async reconcile(key: string, hpa: Obj): Promise<void> {
    const now = this.ctx.clock.now();
    const original = clone(hpa.status ?? {});
    const status = clone(hpa.status ?? {}) as Obj;
    const conditions: Obj[] = clone((status.conditions ?? []) as Obj[]);
    const setCondition = (c: ConditionSetting) => {
      let existing = conditions.find((x) => x.type === c.type);
      if (!existing) conditions.push((existing = { type: c.type }));
      if (existing.status !== c.status) existing.lastTransitionTime = rfc3339Seconds(now);
      existing.status = c.status;
      existing.reason = c.reason;
      existing.message = c.message;
    };
    const warn = (reason: string, message: string) => this.warn(key, hpa, reason, message);
    // setCurrentReplicasInStatus: the last desired count and metrics stay.
    const writeStatus = (currentReplicas: number, desiredReplicas: number, currentMetrics: unknown, rescaled: boolean) =>
      this.updateStatusIfNeeded(hpa, original, {
        ...(status.observedGeneration !== undefined ? { observedGeneration: status.observedGeneration } : {}),
        lastScaleTime: rescaled ? rfc3339Seconds(now) : status.lastScaleTime,
        currentReplicas,
        desiredReplicas,
        currentMetrics,
        conditions,
      });
    const ns = String(hpa.metadata.namespace);
    const ref = (hpa.spec?.scaleTargetRef ?? {}) as Obj;

    let scalePath: string;
    let scale: Obj;
    try {
      scalePath = `${await this.resourcePath(String(ref.apiVersion ?? ''), String(ref.kind ?? ''), ns)}/${ref.name}/scale`;
      scale = await this.client.get(scalePath);
    } catch (err) {
      if (err instanceof ApiCallError && err.code >= 500) throw err;
      const message = statusMessage(err);
      warn('FailedGetScale', message);
      setCondition({ type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message: `the HPA controller was unable to get the target's current scale: ${message}` });
      await writeStatus(Number(status.currentReplicas ?? 0), Number(status.desiredReplicas ?? 0), status.currentMetrics, false);
      return;
    }
    setCondition({ type: 'AbleToScale', status: 'True', reason: 'SucceededGetScale', message: "the HPA controller was able to get the target's current scale" });
    const currentReplicas = Number(scale.spec?.replicas ?? 0);
    this.normalizer.recordInitial(key, currentReplicas, now);
    const minReplicas = hpa.spec?.minReplicas ?? 1;
    const maxReplicas = Number(hpa.spec?.maxReplicas ?? 0);
    let desiredReplicas = 0;
    let rescaleReason = '';
    let metricStatuses: unknown = status.currentMetrics;
    if (currentReplicas === 0 && minReplicas !== 0) {
      setCondition({ type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled', message: 'scaling is disabled since the replica count of the target is zero' });
    } else if (currentReplicas > maxReplicas) {
      rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
      desiredReplicas = maxReplicas;
    } else if (currentReplicas < minReplicas) {
      rescaleReason = 'Current number of replicas below Spec.MinReplicas';
      desiredReplicas = minReplicas;
    } else {
      let computed;
      try {
        computed = await computeReplicasForMetrics({ client: this.client, pods: this.pods, now, warn, setCondition }, hpa, scale, (hpa.spec?.metrics ?? []) as Obj[]);
      } catch (err) {
        if (!(err instanceof ComputeError)) throw err;
        await writeStatus(currentReplicas, Number(status.desiredReplicas ?? 0), status.currentMetrics, false);
        warn('FailedComputeMetricsReplicas', err.message);
        return;
      }
      metricStatuses = computed.statuses;
      desiredReplicas = computed.replicas;
      if (desiredReplicas > currentReplicas) rescaleReason = `${computed.metricName} above target`;
      if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
      const normalized = this.normalizer.normalize(hpa, key, currentReplicas, desiredReplicas, minReplicas, now);
      for (const c of normalized.conditions) setCondition(c);
      desiredReplicas = normalized.replicas;
    }
    const rescale = desiredReplicas !== currentReplicas;
    if (rescale) {
      try {
        await this.client.update(scalePath, { ...scale, spec: { ...(scale.spec ?? {}), replicas: desiredReplicas } });
      } catch (err) {
        if (err instanceof ApiCallError && err.code === 409) throw err;
        const message = statusMessage(err);
        void this.events.record(hpa, 'Warning', 'FailedRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${message}`);
        setCondition({ type: 'AbleToScale', status: 'False', reason: 'FailedUpdateScale', message: `the HPA controller was unable to update the target scale: ${message}` });
        await writeStatus(currentReplicas, Number(status.desiredReplicas ?? 0), status.currentMetrics, false);
        return;
      }
      setCondition({ type: 'AbleToScale', status: 'True', reason: 'SucceededRescale', message: `the HPA controller was able to update the target scale to ${desiredReplicas}` });
      void this.events.record(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
      this.normalizer.recordScale(hpa, key, currentReplicas, desiredReplicas, now);
    } else {
      desiredReplicas = currentReplicas;
    }
    await writeStatus(currentReplicas, desiredReplicas, metricStatuses, rescale);
  }

  /** The REST mapping of the target's kind (kube's RESTMapper, from discovery): its collection path in the namespace. */
  private async resourcePath(apiVersion: string, kind: string, ns: string): Promise<string> {
    const parts = apiVersion.split('/');
    if (parts.length > 2 || apiVersion === '') throw new Error(apiVersion === '' ? `no matches for kind "${kind}" in group ""` : `unexpected GroupVersion string: ${apiVersion}`);
    const group = parts.length === 2 ? parts[0] : '';
    const base = parts.length === 2 ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const list = await this.client.getOrUndefined(base);
    const found = ((list?.resources ?? []) as Obj[]).find((r) => r.kind === kind && !String(r.name).includes('/'));
    if (!found) throw new Error(`no matches for kind "${kind}" in group "${group}"`);
    return `${base}/namespaces/${ns}/${found.name}`;
  }

  /** updateStatusIfNeeded: a write only when the status changed, through autoscaling/v1's status. */
  private async updateStatusIfNeeded(hpa: Obj, original: Obj, next: Obj): Promise<void> {
    for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
    if (JSON.stringify(canonical(original)) === JSON.stringify(canonical(next))) return;
    const v1 = hpaFromHub({ ...hpa, status: next }, 'v1') as Obj;
    v1.apiVersion = 'autoscaling/v1';
    v1.kind = 'HorizontalPodAutoscaler';
    try {
      await this.client.update(`/apis/autoscaling/v1/namespaces/${hpa.metadata.namespace}/horizontalpodautoscalers/${hpa.metadata.name}/status`, v1);
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return;
      if (!(err instanceof ApiCallError) || err.code === 409) throw err;
      void this.events.record(hpa, 'Warning', 'FailedUpdateStatus', statusMessage(err));
    }
  }
}
