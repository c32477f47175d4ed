// pods/proxy, services/proxy and nodes/proxy (what `kubectl proxy` and `kubectl get --raw
// .../proxy/...` use). kube-apiserver resolves the target (its ResourceLocation) and then dials
// it; nothing here listens on pod, endpoint or kubelet addresses, so every request gets what
// kube answers before the dial, or the dial's failure:
//   - the name in the URL is `name`, `name:port` or `scheme:name:port` (400 otherwise);
//   - a pod needs an address (400 "address not allowed" without one — no kubelet sets one here);
//   - a service needs its Endpoints (404), a port it declares (503), and an address that belongs
//     to a pod with that IP (503 "no endpoints available" otherwise);
//   - a node needs its kubelet address (as for logs and exec);
//   - then: 503 "error trying to reach service: dial tcp ...: connect: connection refused".
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import { badRequest, serviceUnavailable } from '../meta/status';
import { getObject } from '../registry/store';
import type { Obj } from '../registry/objects';
import { kubeletHost } from './pod-connect';
import { isGlobalUnicast } from '../validation/ip-address';

const SCHEMES = new Set(['', 'http', 'https']);

/** kube's SplitSchemeNamePort; undefined when the id is not valid. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  return name && SCHEMES.has(scheme) ? { scheme, name, port } : undefined;
}

const joinHostPort = (host: string, port: string | number): string => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

function unreachable(host: string, port: string | number): never {
  throw serviceUnavailable(`error trying to reach service: dial tcp ${joinHostPort(host, port)}: connect: connection refused`);
}

function podIPs(pod: Obj): string[] {
  const ips = Array.isArray(pod.status?.podIPs) ? pod.status.podIPs.map((p: Obj) => String(p?.ip ?? '')) : [];
  return ips.length ? ips : pod.status?.podIP ? [String(pod.status.podIP)] : [];
}

async function readObject(rc: RequestContext, resource: string, ns: string, name: string): Promise<Obj> {
  const r = rc.reg.catalog.lookup('', 'v1', resource)!;
  return JSON.parse((await getObject(rc.reg, r, ns, name)).value) as Obj;
}

async function proxyPod(rc: RequestContext): Promise<never> {
  const id = splitSchemeNamePort(rc.info.name);
  if (!id) throw badRequest(`invalid request ${JSON.stringify(rc.info.name)}`);
  const pod = await readObject(rc, 'pods', rc.info.namespace, id.name);
  let port = id.port;
  if (!port) {
    const withPorts = (Array.isArray(pod.spec?.containers) ? pod.spec.containers : []).find((c: Obj) => Array.isArray(c?.ports) && c.ports.length > 0);
    if (withPorts) port = String(withPorts.ports[0].containerPort);
  }
  const ip = podIPs(pod)[0] ?? '';
  if (!isGlobalUnicast(ip)) throw badRequest('address not allowed');
  unreachable(ip, port || (id.scheme === 'https' ? 443 : 80));
}

/** An endpoint address counts only when it names a pod of this namespace with that IP (kube's isValidAddress). */
async function validAddress(rc: RequestContext, addr: Obj): Promise<boolean> {
  const ref = addr.targetRef;
  if (!ref || ref.namespace !== rc.info.namespace) return false;
  try {
    return podIPs(await readObject(rc, 'pods', rc.info.namespace, String(ref.name ?? ''))).includes(String(addr.ip));
  } catch {
    return false;
  }
}

async function proxyService(rc: RequestContext): Promise<never> {
  const raw = rc.info.name;
  const id = splitSchemeNamePort(raw);
  if (!id) throw badRequest(`invalid service request ${JSON.stringify(raw)}`);
  let portName = id.port;
  if (/^-?\d+$/.test(portName)) {
    // A port number names one of the service's ports.
    const svc = await readObject(rc, 'services', rc.info.namespace, id.name);
    const found = (Array.isArray(svc.spec?.ports) ? svc.spec.ports : []).find((p: Obj) => Number(p?.port) === Number(portName));
    if (!found) throw serviceUnavailable(`no service port ${Number(portName)} found for service ${JSON.stringify(id.name)}`);
    portName = String(found.name ?? '');
  }
  const endpoints = await readObject(rc, 'endpoints', rc.info.namespace, id.name);
  const subsets: Obj[] = Array.isArray(endpoints.subsets) ? endpoints.subsets : [];
  if (subsets.length === 0) throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(id.name)}`);
  for (const ss of subsets) {
    const addresses: Obj[] = Array.isArray(ss.addresses) ? ss.addresses : [];
    const port = (Array.isArray(ss.ports) ? ss.ports : []).find((p: Obj) => String(p?.name ?? '') === portName);
    if (!addresses.length || !port) continue;
    for (const addr of addresses) if (await validAddress(rc, addr)) unreachable(String(addr.ip), port.port);
  }
  throw serviceUnavailable(`no endpoints available for service ${JSON.stringify(raw)}`);
}

async function proxyNode(rc: RequestContext): Promise<never> {
  const id = splitSchemeNamePort(rc.info.name);
  if (!id) throw badRequest(`invalid node request ${JSON.stringify(rc.info.name)}`);
  const host = await kubeletHost(rc, id.name);
  unreachable(host, id.port || 10250);
}

/** The resources whose proxy subresource is served here. */
export function isProxy(rc: RequestContext): boolean {
  return rc.info.subresource === 'proxy' && rc.r.info.group === '' && ['pods', 'services', 'nodes'].includes(rc.r.info.resource);
}

export async function handleProxy(rc: RequestContext): Promise<ApiResponse> {
  if (rc.r.info.resource === 'pods') return proxyPod(rc);
  if (rc.r.info.resource === 'services') return proxyService(rc);
  return proxyNode(rc);
}
