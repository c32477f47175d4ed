// Runs the one controller list (controller-list.ts) for one API server, as kube-controller-manager
// runs its controllers: --controllers selects them by name, the API's part starts first (under
// leader election only in the Lease holder), then the simulated cluster's part in list order.
// Started once the API server's bootstrap is done; the simulated components call the API.
import type { Handle } from './client';
import { RealClock, isSteppable, type Clock } from './clock';
import { ControllerContext, DEFAULT_CLUSTER, type ClusterOptions, type Controller, type ServerStore } from './controller';
import { CONTROLLERS, type ControllerEntry } from './controller-list';
import { ControllerLeader, type LeaderTiming } from './builtin/controller-leader';
import { parseControllers, type ControllerSelection } from './controllers-flag';
import type { AggregatedApi } from './aggregated-api';
import { MetricsServer } from './metrics-server';
import { SimulatedKubeletLogs } from './pod-logs';
import { simulatedNodeName } from './nodes';

export interface ControllerManagerOptions {
  /**
   * --controllers text (`*`, `*,-scheduler`, `nodes,kubelet`). Absent: every API controller and
   * no simulated cluster; given: it selects both parts (empty: nothing runs).
   */
  selection?: string;
  /** What the API's part writes through. */
  server: ServerStore;
  /** Run the API's part only while holding the kube-controller-manager Lease under this identity. */
  leaderElection?: { identity: string; timing?: LeaderTiming };
  clock?: Clock;
  cluster?: Partial<ClusterOptions>;
  /** The csrsigning controller's CA (PEM certificate and PKCS#8 key); absent: it signs nothing. */
  signing?: { certPem: string; keyPem: string };
  /** The list to run (tests give their own). */
  list?: readonly ControllerEntry[];
}

export class ControllerManager {
  readonly clock: Clock;
  /** The simulated cluster runs: a --controllers value was given. */
  readonly simulatesCluster: boolean;
  /** The simulated cluster's components that run, in start order. */
  readonly enabled: readonly string[];
  /** The API's part, in start order (the ones --controllers leaves out are never started). */
  readonly apiControllers: readonly Controller[];
  private readonly selected: ControllerSelection;
  /** The simulated components that run only where the controllers run (the Lease holder). */
  private readonly leasedCluster: readonly (() => Controller)[];
  /** The simulated components every host runs (they only read and answer: metrics-server). */
  private readonly everyHostCluster: readonly (() => Controller)[];
  /**
   * One context for every term: its shared informers outlive a lost Lease (a stopped component
   * stops its own queue, so its handlers on them do nothing), and the next term's components
   * start on caches that are already in sync.
   */
  private readonly ctx: ControllerContext;
  private readonly leader?: ControllerLeader;
  private readonly running: Controller[] = [];
  private readonly runningInTerm: Controller[] = [];
  private stopped = false;
  // Set by a shutdown's first step: no further simulated component starts.
  private clusterStopped = false;

  constructor(handle: Handle, opts: ControllerManagerOptions) {
    this.clock = opts.clock ?? new RealClock();
    // An unknown name is a StartupError worded as kube-controller-manager's flag error.
    const selected = (this.selected = parseControllers(opts.selection));
    const list = opts.list ?? CONTROLLERS;
    this.simulatesCluster = Boolean(opts.selection);
    this.apiControllers = list.filter((e) => e.part === 'api').map((e) => e.make());
    const clusterPart = this.simulatesCluster ? list.filter((e) => e.part === 'cluster') : [];
    this.leasedCluster = clusterPart.filter((e) => !e.everyHost).map((e) => e.make);
    this.everyHostCluster = clusterPart.filter((e) => e.everyHost).map((e) => e.make);
    this.enabled = clusterPart.map((e) => e.make().name).filter((n) => selected(n));
    // Absent settings (undefined) keep their defaults.
    const given = Object.fromEntries(Object.entries(opts.cluster ?? {}).filter(([, v]) => v !== undefined));
    this.ctx = new ControllerContext(handle, this.clock, { ...DEFAULT_CLUSTER, ...given }, opts.server, opts.signing);
    // One term of leadership: the API's part, then the simulated cluster's leased components.
    const term = { start: () => this.startTerm(), stop: () => this.stopTerm() };
    if (opts.leaderElection) this.leader = new ControllerLeader(opts.server.registry, opts.leaderElection.identity, term, opts.leaderElection.timing);
  }

  async start(): Promise<void> {
    if (this.stopped) return;
    // The leader's first attempt is awaited: a lone host has its controllers running at once.
    await (this.leader ? this.leader.start() : this.startTerm());
    await this.startComponents(this.everyHostCluster, this.running);
  }

  /**
   * Stops the simulated cluster, whose watches through the API would hold a shutdown open; the
   * API's part writes through the store and stops with the store (`stop`).
   */
  stopCluster(): void {
    this.clusterStopped = true;
    this.stopLeasedCluster();
    for (const c of this.running.splice(0).reverse()) c.stop();
    this.ctx.stop();
  }

  stop(): void {
    this.stopped = true;
    this.stopCluster();
    this.leader?.stop();
    this.stopApiPart();
  }

  private async startTerm(): Promise<void> {
    await this.startApiPart();
    await this.startComponents(this.leasedCluster, this.runningInTerm);
  }

  private stopTerm(): void {
    this.stopLeasedCluster();
    this.stopApiPart();
  }

  private stopLeasedCluster(): void {
    for (const c of this.runningInTerm.splice(0).reverse()) c.stop();
  }

  private async startComponents(makers: readonly (() => Controller)[], running: Controller[]): Promise<void> {
    for (const make of makers) {
      if (this.clusterStopped || this.stopped) return;
      const c = make();
      if (!this.enabled.includes(c.name)) continue;
      running.push(c);
      await c.start(this.ctx);
    }
  }

  private async startApiPart(): Promise<void> {
    for (const c of this.apiControllers) {
      if (this.stopped) return;
      if (this.selected(c.name)) await c.start(this.ctx);
    }
  }

  private stopApiPart(): void {
    for (const c of this.apiControllers) c.stop();
  }

  /** pods/log for the simulated nodes, when their kubelets run. */
  kubeletLogs(): SimulatedKubeletLogs | undefined {
    if (!this.enabled.includes('kubelet')) return undefined;
    const nodes = new Set(Array.from({ length: this.ctx.cluster.nodes }, (_, i) => simulatedNodeName(i)));
    return new SimulatedKubeletLogs(nodes, this.clock);
  }

  /** API groups the running components serve beside the API (metrics.k8s.io from metrics-server). */
  aggregatedApis(): AggregatedApi[] {
    return [...this.running, ...this.runningInTerm].filter((c): c is Controller & AggregatedApi => c instanceof MetricsServer);
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
