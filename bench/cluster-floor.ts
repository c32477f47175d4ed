// The rollout bench's floor (decision 0033, made honest in 0044): the writes the controllers
// made during a rollout, counted by kind from the server's metrics, issued one after another by
// a bare loop against an API with no controllers. Each write is the one the controllers send:
// the same identity and field manager (ApiClient, as a controller calls the API), the same body
// (a pod made by podFromTemplate with its owner reference, the Binding the scheduler posts, the
// kubelet's two status reports — admitted, then running — from kubeletPodStatus, events as the
// recorders write them: core/v1 creates from coreEvent, the EventCorrelator's count patches of the
// ReplicaSet's combined event, events.k8s.io/v1 creates from eventsV1Event for the scheduler;
// full ReplicaSet and Deployment objects for their status updates),
// and the answers parsed as a controller parses them. What the loop leaves out is the deciding:
// no informers, no queues, no scans.
import type { ApiServer } from '../src/core/api';
import { ApiCallError, ApiClient, type Identity } from '../src/core/controllers/client';
import { RealClock, rfc3339Seconds } from '../src/core/controllers/clock';
import { controllerServiceAccount, nodeIdentity, SCHEDULER } from '../src/core/controllers/controller';
import { coreEvent } from '../src/core/controllers/events';
import { eventsV1Event, SCHEDULER_HOSTNAME } from '../src/core/controllers/events-v1-recorder';
import { nodeNetwork, simulatedNodeName } from '../src/core/controllers/nodes';
import { kubeletPodStatus } from '../src/core/controllers/pod-status';
import { ownerRefTo, podFromTemplate } from '../src/core/controllers/pods';
import type { Obj } from '../src/core/registry/objects';

const ADMIN: Identity = { username: 'bench', groups: ['system:masters', 'system:authenticated'], fieldManager: 'kubectl-create' };
const NS = '/api/v1/namespaces/default';
const APPS = '/apis/apps/v1/namespaces/default';

function template(): Obj {
  return { metadata: { labels: { app: 'big' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } };
}

/** A generated name can collide (five random characters): the write is tried again, as the ReplicaSet controller's next sync would. */
async function createPod(client: ApiClient, pod: Obj): Promise<Obj> {
  for (;;) {
    try {
      return await client.create(`${NS}/pods`, pod);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 409)) throw err;
    }
  }
}

/** The floor's writes into `api` (which runs no controllers); returns their time and count. */
export async function replayWrites(api: ApiServer, writes: Map<string, number>, replicas: number, nodes: number): Promise<{ ms: number; total: number }> {
  const handle = api.handle.bind(api);
  const clock = new RealClock();
  const admin = new ApiClient(handle, ADMIN);
  const deployments = new ApiClient(handle, controllerServiceAccount('deployment-controller'));
  const replicaSets = new ApiClient(handle, controllerServiceAccount('replicaset-controller'));
  const scheduler = new ApiClient(handle, SCHEDULER);
  const kubelets = Array.from({ length: nodes }, (_, n) => new ApiClient(handle, nodeIdentity(simulatedNodeName(n))));
  for (let n = 0; n < nodes; n++) await admin.create('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: simulatedNodeName(n) } });
  const statusPerPod = Math.round((writes.get('PATCH pods/status') ?? 0) / replicas);
  // The events written, by verb: creates (either API) and the correlator's count patches.
  let posts = writes.get('POST events') ?? 0;
  let patches = writes.get('PATCH events') ?? 0;
  /** The ReplicaSet's events: its first nine SuccessfulCreate, then the combined one that the patches count. */
  let rsCreates = 0;
  let combined: Obj | undefined;
  const coreCreate = async (client: ApiClient, involved: Obj, component: string, reason: string, message: string) => {
    if (posts <= 0) return 0;
    posts--;
    await client.create(`${NS}/events`, coreEvent(involved, 'Normal', reason, message, { component }, clock.now()));
    return 1;
  };
  const rsEvent = async (rs: Obj, message: string) => {
    if (rsCreates < 10 && posts > 0) {
      rsCreates++;
      posts--;
      const body = coreEvent(rs, 'Normal', 'SuccessfulCreate', rsCreates === 10 ? `(combined from similar events): ${message}` : message, { component: 'replicaset-controller' }, clock.now());
      const created = await replicaSets.create(`${NS}/events`, body);
      if (rsCreates === 10) combined = created;
      return 1;
    }
    return patchCombined(message);
  };
  const patchCombined = async (message: string) => {
    if (patches <= 0 || !combined) return 0;
    patches--;
    combined = await replicaSets.patch(`${NS}/events/${combined.metadata.name}`, { count: Number(combined.count) + 1, lastTimestamp: rfc3339Seconds(clock.now()), message: `(combined from similar events): ${message}` }, 'strategic');
    return 1;
  };
  const scheduled = async (pod: Obj, node: string) => {
    if (posts <= 0) return 0;
    posts--;
    const body = eventsV1Event({ regarding: { ...pod, apiVersion: 'v1', kind: 'Pod' }, type: 'Normal', reason: 'Scheduled', action: 'Binding', note: `Successfully assigned default/${pod.metadata.name} to ${node}`, reportingController: 'default-scheduler', reportingInstance: `default-scheduler-${SCHEDULER_HOSTNAME}` }, clock.now());
    await scheduler.create(`/apis/events.k8s.io/v1/namespaces/default/events`, body);
    return 1;
  };
  let total = 0;
  const t0 = performance.now();
  let d: Obj = await admin.create(`${APPS}/deployments`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'big' }, spec: { replicas, selector: { matchLabels: { app: 'big' } }, template: template() } });
  d = { ...d, apiVersion: 'apps/v1', kind: 'Deployment' };
  const rsBody = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'big-1', ownerReferences: [ownerRefTo(d, 'apps/v1', 'Deployment')] }, spec: { replicas, selector: { matchLabels: { app: 'big' } }, template: template() } };
  let rs: Obj = { ...(await deployments.create(`${APPS}/replicasets`, rsBody)), apiVersion: 'apps/v1', kind: 'ReplicaSet' };
  total += 2 + (await coreCreate(deployments, d, 'deployment-controller', 'ScalingReplicaSet', `Scaled up replica set big-1 to ${replicas}`));
  const owner = ownerRefTo(rs, 'apps/v1', 'ReplicaSet');
  for (let i = 0; i < replicas; i++) {
    const n = i % nodes;
    const pod = await createPod(replicaSets, podFromTemplate(rs.spec.template, 'big-1', 'default', owner));
    const name = String(pod.metadata.name);
    total += 1 + (await rsEvent(rs, `Created pod: ${name}`));
    await scheduler.create(`${NS}/pods/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name, namespace: 'default', uid: pod.metadata.uid }, target: { apiVersion: 'v1', kind: 'Node', name: simulatedNodeName(n) } });
    total += 1 + (await scheduled(pod, simulatedNodeName(n)));
    const hostIP = nodeNetwork(n).internalIP;
    const startTime = rfc3339Seconds(clock.now());
    let current: Obj = { ...pod, spec: { ...pod.spec, nodeName: simulatedNodeName(n) } };
    for (let k = 0; k < statusPerPod; k++) {
      // The kubelet's reports: admitted (containers being created), then running with an IP.
      const podIP = k === 0 ? undefined : `10.244.${n}.${2 + Math.floor(i / nodes)}`;
      current = await kubelets[n].patch(`${NS}/pods/${name}/status`, { status: kubeletPodStatus({ pod: current, hostIP, podIP, now: clock.now(), startTime }) }, 'merge');
      total++;
    }
  }
  // Events the loop above had no place for (the controllers' own count decides how many).
  while (posts > 0) total += await coreCreate(deployments, d, 'deployment-controller', 'ScalingReplicaSet', `Scaled up replica set big-1 to ${replicas}`);
  while (patches > 0 && combined) total += await patchCombined('Created pod: big-1-extra');
  const rsStatus = writes.get('PUT replicasets/status') ?? 0;
  for (let k = 0; k < rsStatus; k++) {
    const ready = Math.round(((k + 1) * replicas) / rsStatus);
    rs = { ...(await replicaSets.update(`${APPS}/replicasets/big-1/status`, { ...rs, status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: ready, availableReplicas: ready, observedGeneration: 1 } })), apiVersion: 'apps/v1', kind: 'ReplicaSet' };
    total++;
  }
  const dStatus = writes.get('PUT deployments/status') ?? 0;
  for (let k = 0; k < dStatus; k++) {
    const ready = Math.round(((k + 1) * replicas) / dStatus);
    d = { ...(await deployments.update(`${APPS}/deployments/big/status`, { ...d, status: { observedGeneration: 1, replicas, updatedReplicas: replicas, readyReplicas: ready, availableReplicas: ready, unavailableReplicas: replicas - ready } })), apiVersion: 'apps/v1', kind: 'Deployment' };
    total++;
  }
  return { ms: performance.now() - t0, total };
}
