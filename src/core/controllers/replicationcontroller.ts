// kube-controller-manager's replicationcontroller controller (v1.23 replication_controller.go):
// kube runs the ReplicaSet engine on v1 ReplicationControllers, converting them, so pods are
// owned by `v1`/`ReplicationController`, the selector is a plain label map, and it writes as
// `system:serviceaccount:kube-system:replication-controller` (also its events' component).
import { ReplicaSetController, type ReplicaKind } from './replicaset';

export const REPLICATION_CONTROLLERS: ReplicaKind = {
  name: 'replicationcontroller',
  apiVersion: 'v1',
  kind: 'ReplicationController',
  collection: '/api/v1/replicationcontrollers',
  namespaced: '/api/v1/namespaces',
  resource: 'replicationcontrollers',
  account: 'replication-controller',
};

export class ReplicationControllerController extends ReplicaSetController {
  constructor() {
    super(REPLICATION_CONTROLLERS);
  }
}
