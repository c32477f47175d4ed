// The pod subresources kube-apiserver hands to the pod's kubelet: log (GET) and the connect
// endpoints exec, attach and portforward. There are no kubelets here, so these answer exactly what
// kube-apiserver answers before it would reach one:
//   - the pod must exist; a container named in the request must be one of the pod's, and one must
//     be named when the pod has several (400, kube's wording);
//   - a pod no node runs (no spec.nodeName) has nothing to read or attach to: log answers
//     204 No Content (kubectl prints nothing), the connect endpoints 400 "does not have a host
//     assigned";
//   - a pod bound to a node needs that Node object (404) with an address (kube's 500 otherwise),
//     and then the kubelet at <address>:10250, which nothing here serves: the dial fails as it
//     does against a node whose kubelet is down.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import { ApiError, badRequest } from '../meta/status';
import { getObject } from '../registry/store';
import type { Obj } from '../registry/objects';
import { newUuid } from '../registry/uuid';
import { readPodLogOptions } from './pod-logs';

/** Subresources served here (pods only). */
export const POD_CONNECT_SUBRESOURCES = new Set(['log', 'exec', 'attach', 'portforward']);

const KUBELET_PORT = 10250;
/** kube's default --kubelet-preferred-address-types order. */
const ADDRESS_TYPES = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

const names = (containers: unknown): string => (Array.isArray(containers) ? containers.map((c: Obj) => c?.name ?? '').join(' ') : '');

/** kube's validateContainer (log) and the same check in streamLocation (exec, attach). */
function containerOf(pod: Obj, name: string, requested: string): string {
  const spec = pod.spec ?? {};
  const all: Obj[] = [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...(spec.ephemeralContainers ?? [])];
  if (requested) {
    if (!all.some((c) => c?.name === requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const containers: Obj[] = spec.containers ?? [];
  if (containers.length === 1) return String(containers[0]!.name ?? '');
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${name}`);
  let message = `a container name must be specified for pod ${name}, choose one of: [${names(spec.containers)}]`;
  if (Array.isArray(spec.initContainers) && spec.initContainers.length > 0) message += ` or one of the init containers: [${names(spec.initContainers)}]`;
  throw badRequest(message);
}

/** The node's kubelet address as kube picks it, or kube's errors for a missing node or address. */
export async function kubeletHost(rc: RequestContext, nodeName: string): Promise<string> {
  const nodes = rc.reg.catalog.lookup('', 'v1', 'nodes')!;
  const node = JSON.parse((await getObject(rc.reg, nodes, '', nodeName)).value) as Obj;
  const addresses: Obj[] = Array.isArray(node.status?.addresses) ? node.status.addresses : [];
  for (const type of ADDRESS_TYPES) {
    const found = addresses.find((a) => a?.type === type && a.address);
    if (found) return String(found.address);
  }
  // A plain error in kube: Status with code 500 and no reason.
  throw new ApiError(500, '', `no preferred addresses found; known addresses: [${addresses.map((a) => `{${a?.type ?? ''} ${a?.address ?? ''}}`).join(' ')}]`);
}

function hostPort(host: string): string {
  return host.includes(':') ? `[${host}]:${KUBELET_PORT}` : `${host}:${KUBELET_PORT}`;
}

export async function handlePodConnect(rc: RequestContext): Promise<ApiResponse> {
  const { name, namespace, subresource } = rc.info;
  const isLog = subresource === 'log';
  // LogREST.Get validates the options before it looks the pod up.
  const logOptions = isLog ? readPodLogOptions(name, rc.query) : undefined;
  const pod = JSON.parse((await getObject(rc.reg, rc.r, namespace, name)).value) as Obj;
  // portforward names no container; log, exec and attach do (or default to the only one).
  const container = subresource === 'portforward' ? '' : containerOf(pod, name, rc.query.get('container') ?? '');
  const nodeName = typeof pod.spec?.nodeName === 'string' ? pod.spec.nodeName : '';
  if (!nodeName) {
    // kube writes the bare status: no body, no content type.
    if (isLog) return { status: 204, headers: { 'Audit-Id': newUuid(), 'Cache-Control': 'no-cache, private' }, body: '' };
    throw badRequest(`pod ${name} does not have a host assigned`);
  }
  const host = await kubeletHost(rc, nodeName);
  // A simulated kubelet answers for its own node (core/controllers/pod-logs.ts).
  if (logOptions && rc.reg.kubeletLogs?.serves(nodeName)) return rc.reg.kubeletLogs.log(pod, container, logOptions);
  const target = hostPort(host);
  const dial = `dial tcp ${target}: connect: connection refused`;
  // The log stream's GET fails in the HTTP client; the connect endpoints' upgrade proxy says so.
  throw new ApiError(500, '', isLog ? `Get "https://${target}/containerLogs/${namespace}/${name}/${container}": ${dial}` : `error dialing backend: ${dial}`);
}
