// Services: ClusterIP allocation from the service CIDR (10.96.0.0/12), released on delete, and
// the `kubernetes` Service every cluster has in `default`.
import { objectKey } from '../catalog';
import type { RegistryContext } from '../context';
import { createObject } from '../store';
import { invalid } from '../../server/status';
import { ClusterIpAllocator } from '../validation';
import type { Obj } from '../objects';

/** Whether this Service gets an IP from the allocator. */
function needsIp(svc: Obj): boolean {
  return svc.spec?.type !== 'ExternalName' && svc.spec?.clusterIP !== 'None';
}

export function registerServiceHooks(ctx: RegistryContext): ClusterIpAllocator {
  const allocator = new ClusterIpAllocator();
  ctx.hooks.set('/services', {
    beforeCreate(_c, r, obj, dryRun) {
      obj.spec = obj.spec ?? {};
      if (!needsIp(obj)) return;
      const requested: string | undefined = obj.spec.clusterIP || obj.spec.clusterIPs?.[0];
      if (requested) {
        const err = allocator.check(requested);
        if (err) throw invalid(r.info.group, r.info.kind, obj.metadata?.name ?? '', [err]);
        if (!dryRun) allocator.reserve(requested);
        obj.spec.clusterIP = requested;
      } else {
        obj.spec.clusterIP = dryRun ? allocator.peek() : allocator.allocate();
      }
      obj.spec.clusterIPs = [obj.spec.clusterIP];
    },
    afterDelete(_c, _r, obj) {
      if (obj.spec?.clusterIP && obj.spec.clusterIP !== 'None') allocator.release(obj.spec.clusterIP);
    },
  });
  (ctx as RegistryContext & { ipAllocator?: ClusterIpAllocator }).ipAllocator = allocator;
  return allocator;
}

/** Mark the IPs of stored Services as used, and create the `kubernetes` Service. */
export async function bootstrapServices(ctx: RegistryContext): Promise<void> {
  const allocator = (ctx as RegistryContext & { ipAllocator?: ClusterIpAllocator }).ipAllocator;
  const r = ctx.catalog.versionsOf('', 'services')[0];
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  for (const kv of kvs) {
    const svc = JSON.parse(kv.value) as Obj;
    if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') allocator?.reserve(svc.spec.clusterIP);
  }
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
