// Wires the admission plug-ins into the store's create path (ResourceHooks.beforeCreate), in
// kube-apiserver's plug-in order: LimitRanger, Priority, PodSecurity, DefaultStorageClass, ResourceQuota
// (last, so it sees the mutated object). The resource's own hook (e.g. a Service's ClusterIP
// allocation) runs after admission, as the registry does after admission in kube.
// ServiceAccount defaulting (serviceAccountName) lives in the pod defaults.
import type { RegistryContext } from '../registry/context';
import type { Obj } from '../registry/objects';
import { admitPodLimitRanges } from './limit-ranger';
import { admitPodPriority } from './priority';
import { admitClaimStorageClass } from './default-storage-class';
import { admitQuota } from './resource-quota';
import { admitPodSecurity } from './pod-security';
import { COUNTED } from './quota-usage';

type Mutation = (ctx: RegistryContext, ns: string, obj: Obj) => Promise<void>;

const MUTATIONS: Record<string, Mutation[]> = {
  '/pods': [(c, ns, obj) => admitPodLimitRanges(c, ns, obj), (c, _ns, obj) => admitPodPriority(c, obj), (c, ns, obj) => admitPodSecurity(c, ns, obj)],
  '/persistentvolumeclaims': [(c, _ns, obj) => admitClaimStorageClass(c, obj)],
};

/** Call after the resources' own hooks are registered: it wraps them. */
export function registerAdmission(ctx: RegistryContext): void {
  for (const key of new Set([...Object.keys(MUTATIONS), ...Object.keys(COUNTED)])) {
    const own = ctx.hooks.get(key) ?? {};
    const mutations = MUTATIONS[key] ?? [];
    ctx.hooks.set(key, {
      ...own,
      async beforeCreate(c, r, obj) {
        const ns = String(obj.metadata?.namespace ?? '');
        for (const m of mutations) await m(c, ns, obj);
        await admitQuota(c, r, ns, obj);
        return own.beforeCreate?.(c, r, obj);
      },
    });
  }
}
