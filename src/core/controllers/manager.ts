// The simulated cluster's components in start order, selected with kube-controller-manager's
// --controllers syntax: nodes register before the scheduler places pods on them, workload
// controllers create the pods. Names follow kube-controller-manager where it has the controller
// (`deployment`, `replicaset`, `endpoint`, `endpointslice`); `nodes`, `kubelet` and `scheduler`
// stand for the simulated nodes, their kubelets and kube-scheduler.
import type { Handle } from './client';
import { RealClock, isSteppable, type Clock } from './clock';
import { ControllerContext, DEFAULT_CLUSTER, type ClusterOptions, type Controller } from './controller';
import { NodeSimulator } from './nodes';
import { KubeletSimulator } from './kubelet';
import { Scheduler } from './scheduler';
import { ReplicaSetController } from './replicaset';
import { DeploymentController } from './deployment';
import { ReplicationControllerController } from './replicationcontroller';
import { StatefulSetController } from './statefulset';
import { DaemonSetController } from './daemonset';
import { EndpointsController } from './endpoints';
import { EndpointSliceController } from './endpointslice';
import { CsrApprovingController } from './csr-approving';
import { CsrSigningController } from './csr-signing';
import { EndpointSliceMirroringController } from './endpointslice-mirroring';
import { NodeLifecycleController } from './node-lifecycle';
import { PersistentVolumeBinder } from './pv-binder';
import { StorageProvisioner } from './pv-provisioner';
import { JobController } from './job';
import { CronJobController } from './cronjob';
import { TtlAfterFinishedController } from './ttl-after-finished';
import { PodGCController } from './podgc';
import { parseControllers } from './controllers-flag';
import type { AggregatedApi } from './aggregated-api';
import { MetricsServer } from './metrics-server';
import { HorizontalPodAutoscalerController } from './hpa';
import { SimulatedKubeletLogs } from './pod-logs';
import { simulatedNodeName } from './nodes';

const ALL: readonly (() => Controller)[] = [
  () => new NodeSimulator(),
  () => new KubeletSimulator(),
  () => new Scheduler(),
  () => new ReplicaSetController(),
  () => new DeploymentController(),
  () => new ReplicationControllerController(),
  () => new StatefulSetController(),
  () => new DaemonSetController(),
  () => new EndpointsController(),
  () => new EndpointSliceController(),
  () => new HorizontalPodAutoscalerController(),
  () => new MetricsServer(),
  () => new EndpointSliceMirroringController(),
  () => new NodeLifecycleController(),
  () => new PersistentVolumeBinder(),
  () => new StorageProvisioner(),
  () => new CsrApprovingController(),
  () => new CsrSigningController(),
  () => new JobController(),
  () => new CronJobController(),
  () => new TtlAfterFinishedController(),
  () => new PodGCController(),
];

export const CONTROLLER_NAMES: readonly string[] = ALL.map((make) => make().name);

export interface ClusterControllerOptions {
  /** --controllers text (`*`, `*,-scheduler`, `nodes,kubelet`); empty or absent: none. */
  selection?: string;
  clock?: Clock;
  cluster?: Partial<ClusterOptions>;
  /** The csrsigning controller's CA (PEM certificate and PKCS#8 key); absent: it signs nothing. */
  signing?: { certPem: string; keyPem: string };
}

export class ClusterControllers {
  readonly clock: Clock;
  readonly enabled: readonly string[];
  private readonly ctx: ControllerContext;
  private readonly running: Controller[] = [];
  private stopped = false;

  constructor(handle: Handle, opts: ClusterControllerOptions) {
    this.clock = opts.clock ?? new RealClock();
    // One --controllers value selects these and the API's in-process controllers alike; an
    // unknown name is a StartupError worded as kube-controller-manager's flag error.
    const selected = parseControllers(opts.selection ?? '');
    this.enabled = CONTROLLER_NAMES.filter((n) => selected(n));
    // Absent settings (undefined) keep their defaults.
    const given = Object.fromEntries(Object.entries(opts.cluster ?? {}).filter(([, v]) => v !== undefined));
    this.ctx = new ControllerContext(handle, this.clock, { ...DEFAULT_CLUSTER, ...given }, opts.signing);
  }

  async start(): Promise<void> {
    for (const make of ALL) {
      if (this.stopped) return;
      const c = make();
      if (!this.enabled.includes(c.name)) continue;
      this.running.push(c);
      await c.start(this.ctx);
    }
  }

  /** pods/log for the simulated nodes, when their kubelets run. */
  kubeletLogs(): SimulatedKubeletLogs | undefined {
    if (!this.enabled.includes('kubelet')) return undefined;
    const nodes = new Set(Array.from({ length: this.ctx.cluster.nodes }, (_, i) => simulatedNodeName(i)));
    return new SimulatedKubeletLogs(nodes, this.clock);
  }

  /** API groups the running components serve beside the API (metrics.k8s.io from metrics-server). */
  aggregatedApis(): AggregatedApi[] {
    return this.running.filter((c): c is Controller & AggregatedApi => c instanceof MetricsServer);
  }

  stop(): void {
    this.stopped = true;
    for (const c of this.running.splice(0).reverse()) c.stop();
    this.ctx.stop();
  }

  /**
   * Resolves once every controller has nothing queued, running or in flight, and nothing new
   * happened for a few turns of the event loop (watch events arrive asynchronously). Timers
   * waiting on the clock do not count: a test moves a virtual clock with `advance`.
   */
  async runUntilIdle(maxTurns = 100_000): Promise<void> {
    let quietTurns = 0;
    for (let turn = 0; turn < maxTurns; turn++) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      quietTurns = this.ctx.quiet ? quietTurns + 1 : 0;
      if (quietTurns >= 3) return;
    }
    throw new Error('controllers did not become idle');
  }

  /**
   * A steppable clock only (the tests' VirtualClock, the playground's paused PlaygroundClock):
   * moves time forward by `ms`, timer by timer, letting the controllers finish what each step
   * started before the next — so a pod made ready at 1 s gets its successor's delay from 1 s.
   */
  async advance(ms: number): Promise<void> {
    const clock = this.clock;
    if (!isSteppable(clock)) throw new Error('advance needs a steppable clock');
    const target = clock.now() + ms;
    await this.runUntilIdle();
    for (;;) {
      const next = clock.nextTimerAt();
      if (next === undefined || next > target) break;
      clock.advance(next - clock.now());
      await this.runUntilIdle();
    }
    clock.advance(target - clock.now());
    await this.runUntilIdle();
  }
}
