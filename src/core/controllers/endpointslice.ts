// kube-controller-manager's endpointslice controller (v1.23), for Services with a selector:
// one discovery.k8s.io/v1 EndpointSlice per Service (up to 100 endpoints, the controller's
// default --max-endpoints-per-slice), owned by the Service and labelled with its name and the
// controller's managed-by value; each pod an endpoint with ready/serving/terminating conditions.
// Writes as `system:serviceaccount:kube-system:endpointslice-controller`.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { keyOf, type Informer } from './informer';
import { ownerRefTo } from './pods';
import { KeyQueue } from './queue';
import { selectorOf, serviceBackends, servicesSelecting, type Backend } from './service-backends';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';
export const MANAGED_BY_LABEL = 'endpointslice.kubernetes.io/managed-by';
export const MANAGED_BY = 'endpointslice-controller.k8s.io';
const MAX_ENDPOINTS = 100;

function endpoint(b: Backend): Obj {
  const e: Obj = {
    addresses: [b.ip],
    conditions: { ready: b.ready && !b.terminating, serving: b.ready, terminating: b.terminating },
    targetRef: { kind: 'Pod', namespace: b.pod.metadata.namespace, name: b.pod.metadata.name, uid: b.pod.metadata.uid },
  };
  if (b.pod.spec?.nodeName) e.nodeName = b.pod.spec.nodeName;
  return e;
}

/** The slice's endpoints and ports for the Service's current backends. */
export function sliceContent(svc: Obj, backends: readonly Backend[]): { endpoints: Obj[]; ports: Obj[] } {
  const endpoints = backends.filter((b) => b.ports.length || !(svc.spec?.ports ?? []).length).slice(0, MAX_ENDPOINTS).map(endpoint);
  const first = backends.find((b) => b.ports.length);
  const ports = (first?.ports ?? []).map((p) => {
    const out: Obj = { name: p.name, protocol: p.protocol, port: p.port };
    if (p.appProtocol) out.appProtocol = p.appProtocol;
    return out;
  });
  return { endpoints, ports };
}

export class EndpointSliceController implements Controller {
  readonly name = 'endpointslice';
  private client!: ApiClient;
  private services!: Informer;
  private pods!: Informer;
  private slices!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.client = ctx.client(controllerServiceAccount('endpointslice-controller'));
    this.queue = ctx.queue(new KeyQueue('endpointslice-controller', ctx.clock, (key) => this.sync(key)));
    this.services = await ctx.informer('/api/v1/services');
    this.pods = await ctx.informer('/api/v1/pods');
    this.slices = await ctx.informer('/apis/discovery.k8s.io/v1/endpointslices');
    const onService = (svc: Obj) => this.queue.add(keyOf(svc));
    this.services.addHandlers({ onAdd: onService, onUpdate: onService });
    const onPod = (pod: Obj) => {
      for (const svc of servicesSelecting(this.services.list(), pod)) this.queue.add(keyOf(svc));
    };
    this.pods.addHandlers({ onAdd: onPod, onUpdate: (pod, old) => (onPod(pod), onPod(old)), onDelete: onPod });
    // A slice changed or deleted by someone else is put back.
    const onSlice = (slice: Obj) => {
      const svc = slice.metadata?.labels?.[SERVICE_NAME_LABEL];
      if (svc && slice.metadata?.labels?.[MANAGED_BY_LABEL] === MANAGED_BY) this.queue.add(`${slice.metadata.namespace}/${svc}`);
    };
    this.slices.addHandlers({ onUpdate: onSlice, onDelete: onSlice });
  }

  stop(): void {
    this.queue?.stop();
  }

  private ownedSlices(ns: string, name: string): Obj[] {
    return this.slices.list().filter((s) => s.metadata.namespace === ns && s.metadata.labels?.[SERVICE_NAME_LABEL] === name && s.metadata.labels?.[MANAGED_BY_LABEL] === MANAGED_BY);
  }

  private async sync(key: string): Promise<void> {
    const [ns, name] = key.split('/');
    const svc = this.services.get(key);
    // A deleted Service's slices go with it through their ownerReferences (the garbage collector).
    if (!svc || !selectorOf(svc) || svc.metadata.deletionTimestamp) return;
    const { endpoints, ports } = sliceContent(svc, serviceBackends(svc, this.pods.list()));
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}), [SERVICE_NAME_LABEL]: name, [MANAGED_BY_LABEL]: MANAGED_BY };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const [slice, ...extra] = this.ownedSlices(ns, name).sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)));
    const path = `/apis/discovery.k8s.io/v1/namespaces/${ns}/endpointslices`;
    for (const s of extra) await this.deleteQuietly(`${path}/${s.metadata.name}`);
    if (!slice) {
      const body: Obj = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: { generateName: `${name}-`, namespace: ns, labels, ownerReferences: [ownerRefTo({ ...svc }, 'v1', 'Service')] },
        addressType: 'IPv4',
        endpoints,
        ports,
      };
      try {
        await this.client.create(path, body);
      } catch (err) {
        if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 403))) throw err;
      }
      return;
    }
    const same = JSON.stringify(slice.endpoints ?? []) === JSON.stringify(endpoints) && JSON.stringify(slice.ports ?? []) === JSON.stringify(ports) && JSON.stringify(slice.metadata.labels ?? {}) === JSON.stringify(labels);
    if (same) return;
    await this.client.update(`${path}/${slice.metadata.name}`, { ...slice, apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { ...slice.metadata, labels }, endpoints, ports });
  }

  private async deleteQuietly(path: string): Promise<void> {
    try {
      await this.client.delete(path);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
}
