// kube-controller-manager's endpointslicemirroring controller (v1.23): the Endpoints of a Service
// without a selector (written by a user or an operator) are mirrored into EndpointSlices, so
// clients of the newer API see them too. One slice per group of subsets with the same ports and
// address type, owned by the Endpoints object, carrying its labels and annotations (less the
// trigger-time and last-applied ones) plus kubernetes.io/service-name and managed-by
// endpointslicemirroring-controller.k8s.io. Endpoints labelled endpointslice.kubernetes.io/
// skip-mirror=true, leader-election records, and Services with a selector are not mirrored.
// Writes as `system:serviceaccount:kube-system:endpointslicemirroring-controller`.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { MANAGED_BY_LABEL, SERVICE_NAME_LABEL } from './endpointslice';
import { keyOf, type Informer } from './informer';
import { ownerRefTo } from './pods';
import { KeyQueue } from './queue';
import { selectorOf } from './service-backends';

export const MIRRORING_MANAGED_BY = 'endpointslicemirroring-controller.k8s.io';
const SKIP_MIRROR_LABEL = 'endpointslice.kubernetes.io/skip-mirror';
const LEADER_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
const NOT_COPIED = new Set(['endpoints.kubernetes.io/last-change-trigger-time', 'kubectl.kubernetes.io/last-applied-configuration']);
/** --mirroring-max-endpoints-per-subset. */
const MAX_ENDPOINTS_PER_SUBSET = 1000;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function addressType(ip: string): 'IPv4' | 'IPv6' | undefined {
  if (IPV4.test(ip)) return 'IPv4';
  return /^[0-9a-fA-F:.]+$/.test(ip) && ip.includes(':') ? 'IPv6' : undefined;
}

function toEndpoint(address: Obj, ready: boolean): Obj {
  const e: Obj = { addresses: [address.ip], conditions: { ready } };
  if (address.hostname) e.hostname = address.hostname;
  if (address.targetRef) e.targetRef = address.targetRef;
  if (address.nodeName) e.nodeName = address.nodeName;
  return e;
}

function toPort(p: Obj): Obj {
  const out: Obj = { name: p.name ?? '', protocol: p.protocol ?? 'TCP', port: p.port };
  if (p.appProtocol) out.appProtocol = p.appProtocol;
  return out;
}

/** The slices the Endpoints call for: endpoints and ports per (ports, address type) group, in subset order. */
export function desiredSlices(endpoints: Obj): { addressType: string; ports: Obj[]; endpoints: Obj[] }[] {
  const groups = new Map<string, { addressType: string; ports: Obj[]; endpoints: Obj[] }>();
  for (const subset of (endpoints.subsets ?? []) as Obj[]) {
    const ports = ((subset.ports ?? []) as Obj[]).map(toPort);
    const all = [...((subset.addresses ?? []) as Obj[]).map((a) => [a, true] as const), ...((subset.notReadyAddresses ?? []) as Obj[]).map((a) => [a, false] as const)];
    for (const [address, ready] of all.slice(0, MAX_ENDPOINTS_PER_SUBSET)) {
      const type = addressType(String(address.ip ?? ''));
      if (!type) continue;
      const key = `${type}/${JSON.stringify(ports)}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { addressType: type, ports, endpoints: [] }));
      g.endpoints.push(toEndpoint(address, ready));
    }
  }
  return [...groups.values()];
}

export class EndpointSliceMirroringController implements Controller {
  readonly name = 'endpointslicemirroring';
  private client!: ApiClient;
  private services!: Informer;
  private endpoints!: Informer;
  private slices!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.client = ctx.client(controllerServiceAccount('endpointslicemirroring-controller'));
    this.queue = ctx.queue(new KeyQueue('endpointslicemirroring-controller', ctx.clock, (key) => this.sync(key)));
    this.services = await ctx.informer('/api/v1/services');
    this.endpoints = await ctx.informer('/api/v1/endpoints');
    this.slices = await ctx.informer('/apis/discovery.k8s.io/v1/endpointslices');
    const add = (o: Obj) => this.queue.add(keyOf(o));
    this.services.addHandlers({ onAdd: add, onUpdate: add, onDelete: add });
    this.endpoints.addHandlers({ onAdd: add, onUpdate: add, onDelete: add });
    const onSlice = (slice: Obj) => {
      const svc = slice.metadata?.labels?.[SERVICE_NAME_LABEL];
      if (svc && slice.metadata?.labels?.[MANAGED_BY_LABEL] === MIRRORING_MANAGED_BY) this.queue.add(`${slice.metadata.namespace}/${svc}`);
    };
    this.slices.addHandlers({ onUpdate: onSlice, onDelete: onSlice });
  }

  stop(): void {
    this.queue?.stop();
  }

  private mirrored(ns: string, name: string): Obj[] {
    return this.slices
      .list()
      .filter((s) => s.metadata.namespace === ns && s.metadata.labels?.[SERVICE_NAME_LABEL] === name && s.metadata.labels?.[MANAGED_BY_LABEL] === MIRRORING_MANAGED_BY)
      .sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
  }

  private shouldMirror(svc: Obj | undefined, endpoints: Obj | undefined): endpoints is Obj {
    if (!svc || !endpoints || svc.metadata.deletionTimestamp || endpoints.metadata.deletionTimestamp) return false;
    if (selectorOf(svc)) return false;
    if (endpoints.metadata.labels?.[SKIP_MIRROR_LABEL] === 'true') return false;
    return endpoints.metadata.annotations?.[LEADER_ANNOTATION] === undefined;
  }

  private async sync(key: string): Promise<void> {
    const [ns, name] = key.split('/');
    const endpoints = this.endpoints.get(key);
    const existing = this.mirrored(ns, name);
    const path = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
    if (!this.shouldMirror(this.services.get(key), endpoints)) {
      for (const s of existing) await this.deleteQuietly(`${path}/${s.metadata.name}`);
      return;
    }
    const labels: Record<string, string> = { ...(endpoints.metadata.labels ?? {}), [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MIRRORING_MANAGED_BY };
    const annotations = Object.fromEntries(Object.entries((endpoints.metadata.annotations ?? {}) as Record<string, string>).filter(([k]) => !NOT_COPIED.has(k)));
    const meta = (slice?: Obj): Obj => {
      const m: Obj = { ...(slice?.metadata ?? {}), labels };
      if (Object.keys(annotations).length) m.annotations = annotations;
      else delete m.annotations;
      return m;
    };
    const unused = [...existing];
    for (const want of desiredSlices(endpoints)) {
      // Reuse a slice of the same address type and ports when there is one.
      const i = unused.findIndex((s) => s.addressType === want.addressType && JSON.stringify(s.ports ?? []) === JSON.stringify(want.ports));
      const slice = i >= 0 ? unused.splice(i, 1)[0] : undefined;
      if (!slice) {
        const metadata: Obj = { ...meta(), generateName: `${name}-`, namespace: ns, ownerReferences: [ownerRefTo(endpoints, 'v1', 'Endpoints')] };
        try {
          await this.client.create(path, { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata, addressType: want.addressType, endpoints: want.endpoints, ports: want.ports });
        } catch (err) {
          // The namespace is going away: nothing to mirror into.
          if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 403))) throw err;
        }
        continue;
      }
      const same =
        JSON.stringify(slice.endpoints ?? []) === JSON.stringify(want.endpoints) &&
        JSON.stringify(slice.metadata.labels ?? {}) === JSON.stringify(labels) &&
        JSON.stringify(slice.metadata.annotations ?? {}) === JSON.stringify(annotations);
      if (same) continue;
      await this.client.update(`${path}/${slice.metadata.name}`, { ...slice, apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: meta(slice), endpoints: want.endpoints, ports: want.ports });
    }
    for (const s of unused) await this.deleteQuietly(`${path}/${s.metadata.name}`);
  }

  private async deleteQuietly(path: string): Promise<void> {
    try {
      await this.client.delete(path);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
}
