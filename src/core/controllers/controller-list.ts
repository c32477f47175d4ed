// Every controller this server runs, in start order: one list, one Controller interface (decision
// 0042). Adding one is a class implementing Controller in its own file plus one entry here; a
// name kube-controller-manager v1.23 does not have also goes into KNOWN_CONTROLLERS
// (controllers-flag.ts) for --controllers to accept it.
//
// kube-controller-manager starts the tokens controller before every other (their credentials are
// its tokens) and the rest in no fixed order; here the API's part comes first, tokens first, then
// the simulated cluster's, where nodes register before the scheduler places pods on them and
// workload controllers create the pods.
import type { Controller } from './controller';
import { LegacyTokenController } from './builtin/legacy-token-controller';
import { PdbStatusController } from './builtin/pdb-controller';
import { GarbageCollector } from './builtin/garbage-collector';
import { QuotaStatusController } from './builtin/quota-status-controller';
import { RootCaPublisher } from './builtin/root-ca-publisher';
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
import { HorizontalPodAutoscalerController } from './hpa';
import { MetricsServer } from './metrics-server';
import { EndpointSliceMirroringController } from './endpointslice-mirroring';
import { NodeLifecycleController } from './node-lifecycle';
import { PersistentVolumeBinder } from './pv-binder';
import { StorageProvisioner } from './pv-provisioner';
import { CsrApprovingController } from './csr-approving';
import { CsrSigningController } from './csr-signing';
import { JobController } from './job';
import { CronJobController } from './cronjob';
import { TtlAfterFinishedController } from './ttl-after-finished';
import { PodGCController } from './podgc';

/**
 * Which part of the server a controller belongs to, which says when it runs:
 * - `api`: keeps the API's own objects, writing through the store (decision 0016): tokens,
 *   PDB status, garbage collection, quota status, root CA. Runs whenever --controllers selects
 *   it, also in a server without a simulated cluster; with leader election only in the
 *   kube-system/kube-controller-manager Lease holder.
 * - `cluster`: the simulated cluster, an API client through handle() with a real identity. Runs
 *   only when the host asks for a cluster (a --controllers value is given); with leader election
 *   only in the Lease holder too (two hosts' ReplicaSet controllers would fight over one set of
 *   pods), except the `everyHost` entries.
 */
export type ControllerPart = 'api' | 'cluster';

export interface ControllerEntry {
  part: ControllerPart;
  make(): Controller;
  /**
   * Runs in every host, outside the Lease: it answers requests (an aggregated API such as
   * metrics.k8s.io) and writes nothing but its install manifest's objects, each only when
   * missing, so every host on one etcd serves the same API.
   */
  everyHost?: boolean;
}

const api = (make: () => Controller): ControllerEntry => ({ part: 'api', make });
const cluster = (make: () => Controller): ControllerEntry => ({ part: 'cluster', make });
const servedByEveryHost = (make: () => Controller): ControllerEntry => ({ part: 'cluster', make, everyHost: true });

export const CONTROLLERS: readonly ControllerEntry[] = [
  api(() => new LegacyTokenController()),
  api(() => new PdbStatusController()),
  api(() => new GarbageCollector()),
  api(() => new QuotaStatusController()),
  api(() => new RootCaPublisher()),
  cluster(() => new NodeSimulator()),
  cluster(() => new KubeletSimulator()),
  cluster(() => new Scheduler()),
  cluster(() => new ReplicaSetController()),
  cluster(() => new DeploymentController()),
  cluster(() => new ReplicationControllerController()),
  cluster(() => new StatefulSetController()),
  cluster(() => new DaemonSetController()),
  cluster(() => new EndpointsController()),
  cluster(() => new EndpointSliceController()),
  cluster(() => new HorizontalPodAutoscalerController()),
  servedByEveryHost(() => new MetricsServer()),
  cluster(() => new EndpointSliceMirroringController()),
  cluster(() => new NodeLifecycleController()),
  cluster(() => new PersistentVolumeBinder()),
  cluster(() => new StorageProvisioner()),
  cluster(() => new CsrApprovingController()),
  cluster(() => new CsrSigningController()),
  cluster(() => new JobController()),
  cluster(() => new CronJobController()),
  cluster(() => new TtlAfterFinishedController()),
  cluster(() => new PodGCController()),
];

/** The --controllers names of one part, in start order. */
export function controllerNames(part: ControllerPart, list: readonly ControllerEntry[] = CONTROLLERS): string[] {
  return list.filter((e) => e.part === part).map((e) => e.make().name);
}

/** The simulated cluster's components, in start order. */
export const CONTROLLER_NAMES: readonly string[] = controllerNames('cluster');
