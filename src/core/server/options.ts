// What a host gives createApiServer and what it gets back: the options and the server's surface
// (api.ts re-exports them for hosts).
import type { ApiRequest, ApiResponse } from '../meta/types';
import type { BackendState, KvBackend, MvccStore } from '../storage/types';
import type { AuthorizationMode } from '../auth/access';
import type { AuthenticationOptions } from '../auth/authn';
import type { AuditLog } from './audit';
import type { WebhookTransport } from '../admission/webhooks/call';
import type { Clock } from '../controllers/clock';
import type { ClusterOptions } from '../controllers/controller';
import type { ControllerManager } from '../controllers/manager';

export interface ApiServerOptions {
  /** Durable backend; defaults to the in-memory one. */
  backend?: KvBackend;
  /**
   * An MVCC store opened by the host (the Node host's etcd store), used instead of one over
   * `backend`; the API server closes it.
   */
  store?: MvccStore;
  /**
   * Run kube-controller-manager's controllers (tokens, disruption, garbage collector, resource
   * quota, root CA publisher) only while this server holds the kube-system/kube-controller-manager
   * Lease under this identity: for several servers on one etcd. Absent: they always run.
   */
  leaderElection?: { identity: string; timing?: import('../controllers/builtin/controller-leader').LeaderTiming };
  /** How long history (watch resume, continue tokens, reads at past revisions) is kept. Default 5 minutes. */
  historyWindowMs?: number;
  /** Address advertised in legacy discovery (`serverAddressByClientCIDRs`). */
  serverAddress?: string;
  /** Watch length when the client sends no timeoutSeconds: random in [n, 2n) seconds. Default 30 minutes (kube: 30-60 min). */
  defaultWatchSeconds?: number;
  /** Upper bound on any watch (the browser host keeps watches short). */
  maxWatchSeconds?: number;
  /** How often watches with allowWatchBookmarks get a BOOKMARK. Default 60 s. */
  bookmarkIntervalMs?: number;
  /**
   * Start answering single-object GETs from the key index while values, history and bootstrap
   * load in the background (the Service Worker's cold start). Default false.
   */
  lazyOpen?: boolean;
  /** 'AlwaysAllow' (default: everyone may do anything) or 'RBAC' (bootstrap policy, roles and bindings enforced). */
  authorization?: AuthorizationMode;
  /** Authentication (host-verified client certificates, bearer tokens); absent means every caller is the admin (system:masters). */
  authentication?: AuthenticationOptions;
  /** kube-apiserver's --runtime-config (`batch/v1beta1=false,api/beta=false`); invalid text fails start-up. */
  runtimeConfig?: string;
  /** kube-apiserver's --feature-gates (`APIListChunking=false`); invalid text fails start-up. */
  featureGates?: string;
  /** kube-apiserver's --show-hidden-metrics-for-version: only the previous minor (`1.22`); other values fail start-up. */
  showHiddenMetricsForVersion?: string;
  /** How many audit events the ring keeps (default 1000). */
  auditCapacity?: number;
  /** Calls admission webhooks (`clientConfig.url`); without it every webhook call fails per its failurePolicy. */
  webhookTransport?: WebhookTransport;
  /**
   * Origins (`http://127.0.0.1:8080`) whose webhook URLs the host answers itself, with no network
   * in between (the Service Worker: its own origin, served by the open tab). Their URLs may be
   * http; kube's rule, https only, holds for every other URL.
   */
  localWebhookOrigins?: readonly string[];
  /**
   * PEM of the CA the host's TLS serving certificate chains to (the Node host's --secure-port CA).
   * Published as `ca.crt` in every namespace's kube-root-ca.crt; without it the cluster makes and
   * stores a self-signed CA of its own.
   */
  clusterCaCert?: string;
  /**
   * How long the namespace controller waits after a namespace changes before it deletes a
   * Terminating namespace's content: kube-controller-manager's namespaceDeletionGracePeriod,
   * 5000 by default. Tests use 0.
   */
  namespaceDeletionGracePeriodMs?: number;
  /**
   * kube-controller-manager's --controllers (`*`, `*,-serviceaccount-token`, `nodes,kubelet`):
   * which controllers run. One list (controllers/controller-list.ts) in two parts answers to it:
   * the API's part, which keeps the API's own objects through the store (serviceaccount-token,
   * disruption, garbagecollector, resourcequota, root-ca-cert-publisher; the namespace controller
   * is switched off by it too), and the simulated cluster (nodes, kubelet, scheduler, replicaset,
   * deployment, endpoint, endpointslice, ...), which works through this server's API. When
   * absent, the API's part runs and the simulated cluster does not (a cluster where nothing acts
   * on pods, as the unit tests want); both hosts pass `*`. An unknown name fails start-up.
   */
  controllers?: string;
  /** The simulated cluster's clock (default: real time); tests pass a VirtualClock. */
  clock?: Clock;
  /** Simulated nodes: count, size, kubelet delay. */
  cluster?: Partial<ClusterOptions>;
  /**
   * The CA the csrsigning controller issues certificates with (kube-controller-manager's
   * --cluster-signing-cert-file/--cluster-signing-key-file): PEM certificate and PKCS#8 P-256
   * key. Absent: CSRs are not signed, as in a kube-controller-manager without them.
   */
  clusterSigning?: { certPem: string; keyPem: string };
}

export interface ApiServer {
  handle(req: ApiRequest): Promise<ApiResponse>;
  /** From now on readyz fails (`[-]shutdown failed`); open watches end cleanly. */
  beginShutdown(): void;
  close(): Promise<void>;
  /** The audit events of recent requests, and a feed of new ones (absent in test doubles). */
  readonly audit?: AuditLog;
  /**
   * The store's newest revision, for a host's status display: no request, no audit event (absent
   * in test doubles). Exact: a lazily opened store finishes loading first.
   */
  revision?(): Promise<number>;
  /**
   * The store's whole state (objects, revisions, history window) for seeding another backend: a
   * host whose durable storage fails goes on in memory without renumbering anything.
   */
  snapshot?(): Promise<BackendState>;
  /**
   * Resolves once no deleted namespace waits for the namespace controller or is being emptied
   * (one whose content is held by finalizers is not waited for). Tests wait on it.
   */
  namespacesSettled?(): Promise<void>;
  /** The controllers (controllers/manager.ts); present when the simulated cluster runs (`controllers` given). */
  readonly controllers?: ControllerManager;
}

