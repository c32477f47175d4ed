// Where kube-apiserver sends a webhook's `clientConfig.service`: its default service resolver
// (--enable-aggregator-routing off) is the ClusterIP one (kube-aggregator's
// NewClusterIPServiceResolver → proxy.ResolveCluster), consulted when the HTTP client dials
// `<name>.<namespace>.svc:<port>`. Its errors become the call's cause as Go's client prints a
// dial failure: `Post "<url>": <error>`.
import { objectKey } from '../../registry/catalog';
import type { RegistryContext } from '../../registry/context';
import type { Obj } from '../../registry/objects';

export type ResolvedService =
  /** A cluster IP: nothing listens on cluster IPs here (no kube-proxy, no pods). */
  | { kind: 'clusterIP'; address: string }
  /** An ExternalName service: a host name the host's transport can dial. */
  | { kind: 'external'; host: string; address: string }
  | { kind: 'error'; message: string };

/** Go's net.JoinHostPort: an IPv6 literal in brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

export async function resolveService(ctx: RegistryContext, namespace: string, name: string, port: number): Promise<ResolvedService> {
  const services = ctx.catalog.lookup('', 'v1', 'services');
  const kv = services ? await ctx.mvcc.get(objectKey(services, namespace, name)) : undefined;
  // The service lister's NotFound (resource "service", singular).
  if (!kv) return { kind: 'error', message: `service ${JSON.stringify(name)} not found` };
  const spec: Obj = (JSON.parse(kv.value) as Obj).spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  if (type === 'ClusterIP' && spec.clusterIP === 'None') return { kind: 'error', message: 'cannot route to service with ClusterIP "None"' };
  if (type === 'ClusterIP' || type === 'LoadBalancer' || type === 'NodePort') {
    const ports: Obj[] = Array.isArray(spec.ports) ? spec.ports : [];
    if (!ports.some((p) => p?.port === port)) return { kind: 'error', message: `no service port ${port} found for service ${JSON.stringify(name)}` };
    return { kind: 'clusterIP', address: joinHostPort(String(spec.clusterIP ?? ''), port) };
  }
  if (type === 'ExternalName') return { kind: 'external', host: String(spec.externalName ?? ''), address: joinHostPort(String(spec.externalName ?? ''), port) };
  return { kind: 'error', message: `unsupported service type ${JSON.stringify(type)}` };
}
