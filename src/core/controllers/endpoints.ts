// kube-controller-manager's endpoint controller (v1.23): every Service with a selector gets an
// Endpoints object of the same name listing its pods — ready ones under `addresses`, the rest
// under `notReadyAddresses` — grouped into subsets by their port set, as RepackSubsets does.
// Writes as `system:serviceaccount:kube-system:endpoint-controller`.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { controllerServiceAccount, type Controller, type ControllerContext } from './controller';
import { keyOf, type Informer } from './informer';
import { KeyQueue } from './queue';
import { selectorOf, serviceBackends, servicesSelecting, type Backend } from './service-backends';

function address(b: Backend): Obj {
  const a: Obj = { ip: b.ip };
  if (b.pod.spec?.nodeName) a.nodeName = b.pod.spec.nodeName;
  a.targetRef = { kind: 'Pod', namespace: b.pod.metadata.namespace, name: b.pod.metadata.name, uid: b.pod.metadata.uid };
  return a;
}

/** Subsets: one per distinct port set, addresses sorted by IP as RepackSubsets leaves them. */
export function endpointSubsets(svc: Obj, backends: readonly Backend[]): Obj[] {
  const bySignature = new Map<string, { ports: Backend['ports']; ready: Obj[]; notReady: Obj[] }>();
  const publishNotReady = svc.spec?.publishNotReadyAddresses === true;
  for (const b of backends) {
    if (!b.ports.length && (svc.spec?.ports ?? []).length) continue;
    if (b.terminating) continue;
    const ports = [...b.ports].sort((x, y) => x.name.localeCompare(y.name) || x.port - y.port);
    const sig = JSON.stringify(ports);
    let group = bySignature.get(sig);
    if (!group) bySignature.set(sig, (group = { ports, ready: [], notReady: [] }));
    (b.ready || publishNotReady ? group.ready : group.notReady).push(address(b));
  }
  const byIp = (a: Obj, b: Obj) => String(a.ip).localeCompare(String(b.ip), undefined, { numeric: true });
  return [...bySignature.values()].map((g) => {
    const subset: Obj = {};
    if (g.ready.length) subset.addresses = g.ready.sort(byIp);
    if (g.notReady.length) subset.notReadyAddresses = g.notReady.sort(byIp);
    if (g.ports.length) subset.ports = g.ports.map((p) => ({ name: p.name || undefined, port: p.port, protocol: p.protocol, appProtocol: p.appProtocol }));
    return JSON.parse(JSON.stringify(subset)) as Obj;
  });
}

export class EndpointsController implements Controller {
  readonly name = 'endpoint';
  private client!: ApiClient;
  private services!: Informer;
  private pods!: Informer;
  private endpoints!: Informer;
  private queue!: KeyQueue;

  async start(ctx: ControllerContext): Promise<void> {
    this.client = ctx.client(controllerServiceAccount('endpoint-controller'));
    this.queue = ctx.queue(new KeyQueue('endpoint-controller', ctx.clock, (key) => this.sync(key)));
    this.services = await ctx.informer('/api/v1/services');
    this.pods = await ctx.informer('/api/v1/pods');
    this.endpoints = await ctx.informer('/api/v1/endpoints');
    const onService = (svc: Obj) => this.queue.add(keyOf(svc));
    this.services.addHandlers({ onAdd: onService, onUpdate: onService, onDelete: onService });
    const onPod = (pod: Obj) => {
      for (const svc of servicesSelecting(this.services.list(), pod)) this.queue.add(keyOf(svc));
    };
    this.pods.addHandlers({ onAdd: onPod, onUpdate: (pod, old) => (onPod(pod), onPod(old)), onDelete: onPod });
  }

  stop(): void {
    this.queue?.stop();
  }

  private async sync(key: string): Promise<void> {
    const [ns, name] = key.split('/');
    const path = `/api/v1/namespaces/${ns}/endpoints`;
    const svc = this.services.get(key);
    const existing = this.endpoints.get(key);
    if (!svc) {
      // The Service is gone: so are the Endpoints the controller kept for it.
      if (existing) await this.deleteQuietly(`${path}/${name}`);
      return;
    }
    if (!selectorOf(svc)) return;
    const subsets = endpointSubsets(svc, serviceBackends(svc, this.pods.list()));
    const labels: Record<string, string> = { ...(svc.metadata.labels ?? {}) };
    if (svc.spec?.clusterIP === 'None') labels['service.kubernetes.io/headless'] = '';
    const metadata: Obj = { name, namespace: ns };
    if (Object.keys(labels).length) metadata.labels = labels;
    if (!existing) {
      try {
        await this.client.create(path, { apiVersion: 'v1', kind: 'Endpoints', metadata, subsets: subsets.length ? subsets : undefined });
      } catch (err) {
        if (!(err instanceof ApiCallError && (err.code === 409 || err.code === 404 || err.code === 403))) throw err;
      }
      return;
    }
    const sameSubsets = JSON.stringify(existing.subsets ?? []) === JSON.stringify(subsets);
    const sameLabels = JSON.stringify(existing.metadata.labels ?? {}) === JSON.stringify(labels);
    if (sameSubsets && sameLabels) return;
    const next: Obj = { ...existing, apiVersion: 'v1', kind: 'Endpoints', metadata: { ...existing.metadata, labels: Object.keys(labels).length ? labels : undefined } };
    if (subsets.length) next.subsets = subsets;
    else delete next.subsets;
    await this.client.update(`${path}/${name}`, next);
  }

  private async deleteQuietly(path: string): Promise<void> {
    try {
      await this.client.delete(path);
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
}
