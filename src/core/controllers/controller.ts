// What every controller shares: the Controller shape, and the context it is started with (the
// clock, API clients with real identities, shared informers, the cluster's options, and the
// server's store for the controllers that write through it, decision 0016).
import type { RegistryContext } from '../registry/context';
import type { ServiceAccountTokens } from '../auth/service-account-tokens';
import { ApiClient, type Handle, type Identity } from './client';
import type { Clock } from './clock';
import { Informer } from './informer';
import type { KeyQueue } from './queue';

/** A controller or a simulated component, named as kube-controller-manager's --controllers names it. */
export interface Controller {
  readonly name: string;
  /** Lists what it follows and starts its watches; called again after a regained Lease, so a running one returns at once. */
  start(ctx: ControllerContext): Promise<void>;
  /** Cancels its watches and queued work; harmless when it never started. */
  stop(): void;
}

/** The API server's parts the store-backed controllers work on (decision 0016). */
export interface ServerStore {
  /** The store, catalog and write hooks they read and write through. */
  registry: RegistryContext;
  /** The service-account token issuer (the tokens controller signs with it). */
  serviceAccountTokens: ServiceAccountTokens;
}

/** Simulated nodes (kwok-like): how many, their size, how fast their kubelets act. */
export interface ClusterOptions {
  /** Node objects made at start (default 3). */
  nodes: number;
  /** Each node's capacity.cpu (default `4`). */
  nodeCpu: string;
  /** Each node's capacity.memory (default `8Gi`). */
  nodeMemory: string;
  /** Each node's capacity.pods (default 110, the kubelet's). */
  nodePods: number;
  /** Cluster time from a pod's binding to its containers running (default 1000 ms). */
  kubeletDelayMs: number;
  /** Cluster time a run-to-completion pod (restartPolicy Never/OnFailure) runs before its containers exit (default 1000 ms; see kubelet-completion.ts). */
  jobRunMs: number;
  /** kube-controller-manager's --terminated-pod-gc-threshold: podgc deletes the oldest terminated pods over this count (default 12500; 0 turns it off). */
  terminatedPodGCThreshold: number;
}

export const DEFAULT_CLUSTER: ClusterOptions = { nodes: 3, nodeCpu: '4', nodeMemory: '8Gi', nodePods: 110, kubeletDelayMs: 1000, jobRunMs: 1000, terminatedPodGCThreshold: 12500 };

/** kube-controller-manager's own user (the shared informers list and watch as it). */
export const CONTROLLER_MANAGER: Identity = { username: 'system:kube-controller-manager', groups: ['system:authenticated'], fieldManager: 'kube-controller-manager' };
export const SCHEDULER: Identity = { username: 'system:kube-scheduler', groups: ['system:authenticated'], fieldManager: 'kube-scheduler' };

/** A controller's service account, as with --use-service-account-credentials (its writes still record manager kube-controller-manager). */
export function controllerServiceAccount(account: string): Identity {
  return {
    username: `system:serviceaccount:kube-system:${account}`,
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
    fieldManager: 'kube-controller-manager',
  };
}

export function nodeIdentity(node: string): Identity {
  return { username: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'], fieldManager: 'kubelet' };
}

export class ControllerContext {
  private readonly informers = new Map<string, Informer>();
  private readonly clients: ApiClient[] = [];
  private readonly queues: KeyQueue[] = [];
  private stopped = false;
  /** Work started outside a queue (a node's first registration); tests wait for it. */
  readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly handle: Handle,
    readonly clock: Clock,
    readonly cluster: ClusterOptions,
    /** The server's store, for the controllers that write through it rather than through the API. */
    readonly server: ServerStore,
    /** The CA the csrsigning controller signs with, when the host has one. */
    readonly signing?: { certPem: string; keyPem: string },
  ) {}

  client(identity: Identity): ApiClient {
    const c = new ApiClient(this.handle, identity);
    this.clients.push(c);
    return c;
  }

  /** One informer per collection path, shared by every controller (kube's SharedInformerFactory). */
  async informer(path: string): Promise<Informer> {
    let inf = this.informers.get(path);
    if (!inf) {
      inf = new Informer(this.client(CONTROLLER_MANAGER), path, this.clock);
      this.informers.set(path, inf);
      // Once stopped (the server closing during a start), nothing new may list or watch.
      if (!this.stopped) await inf.start();
    }
    return inf;
  }

  queue(q: KeyQueue): KeyQueue {
    this.queues.push(q);
    if (this.stopped) q.stop();
    return q;
  }

  track<T>(p: Promise<T>): Promise<T> {
    this.pending.add(p);
    void p.catch(() => undefined).finally(() => this.pending.delete(p));
    return p;
  }

  /** Nothing queued, running or in flight (timers waiting on the clock do not count). */
  get quiet(): boolean {
    return this.pending.size === 0 && this.queues.every((q) => q.idle) && this.clients.every((c) => c.inFlight === 0) && [...this.informers.values()].every((i) => !i.starting);
  }

  stop(): void {
    this.stopped = true;
    for (const q of this.queues) q.stop();
    for (const inf of this.informers.values()) inf.stop();
  }
}
