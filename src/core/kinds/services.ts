// Services: ClusterIP (10.96.0.0/12) and NodePort (30000-32767) allocation, given back when a
// write does not happen or the Service goes, and the `kubernetes` Service in `default`.
import { objectKey } from '../registry/catalog';
import type { RegistryContext, ResourceHooks } from '../registry/context';
import { createObject } from '../registry/store';
import { invalid } from '../meta/status';
import { ClusterIpAllocator, NodePortAllocator } from '../validation';
import { allocateServiceAddresses, releaseServiceAddresses, reserveServiceAddresses, type ServiceAllocators } from '../validation/cluster-ip';
import type { Obj } from '../registry/objects';

const allocatorsByContext = new WeakMap<RegistryContext, ServiceAllocators>();

/** Service's hooks (its kind spec's, kinds/core.ts), with this API server's address allocators. */
export function serviceHooks(ctx: RegistryContext): ResourceHooks {
  const alloc: ServiceAllocators = { ips: new ClusterIpAllocator(), nodePorts: new NodePortAllocator() };
  allocatorsByContext.set(ctx, alloc);
  const allocate = (r: { info: { group: string; kind: string } }, svc: Obj, old?: Obj) => {
    const res = allocateServiceAddresses(svc, alloc, old);
    if (res.errors.length) throw invalid(r.info.group, r.info.kind, svc.metadata?.name ?? '', res.errors);
    return res;
  };
  return {
    beforeCreate: (_c, r, obj) => allocate(r, obj),
    beforeUpdate: (_c, r, next, old) => allocate(r, next, old),
    afterDelete(_c, _r, obj) {
      releaseServiceAddresses(obj, alloc);
    },
  };
}

/** Mark the addresses of stored Services as used, and create the `kubernetes` Service. */
export async function bootstrapServices(ctx: RegistryContext): Promise<void> {
  const alloc = allocatorsByContext.get(ctx);
  const r = ctx.catalog.versionsOf('', 'services')[0];
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  for (const kv of kvs) if (alloc) reserveServiceAddresses(JSON.parse(kv.value) as Obj, alloc);
  await ensureKubernetesService(ctx);
}

/** Creates the `kubernetes` Service in `default` when it is missing (kube's bootstrap controller). */
export async function ensureKubernetesService(ctx: RegistryContext): Promise<void> {
  const r = ctx.catalog.versionsOf('', 'services')[0];
  if (!(await ctx.mvcc.get(objectKey(r, 'default', 'kubernetes')))) {
    await createObject(
      ctx,
      r,
      'default',
      {
        metadata: { name: 'kubernetes', labels: { component: 'apiserver', provider: 'kubernetes' } },
        spec: { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], sessionAffinity: 'None', type: 'ClusterIP' },
      },
      false,
    );
  }
}
