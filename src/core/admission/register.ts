// Wires the admission plug-ins into the store (ResourceHooks), in kube-apiserver's plug-in order:
// mutating LimitRanger, Priority, DefaultTolerationSeconds and DefaultStorageClass before validation (beforeCreate), then
// ResourceQuota (it sees the mutated object); PodSecurity validates after object validation and
// the mutating webhooks (admitCreate, prepareUpdate), for pods and for workloads' pod templates.
// The resource's own hook (e.g. a Service's ClusterIP allocation) runs after admission, as the
// registry does after admission in kube. ServiceAccount defaulting lives in the pod defaults.
import type { RegistryContext, ResourceHooks } from '../registry/context';
import type { Obj } from '../registry/objects';
import { admitPodLimitRanges } from './limit-ranger';
import { admitPodPriority } from './priority';
import { admitClaimStorageClass } from './default-storage-class';
import { admitDefaultTolerationSeconds } from './default-toleration-seconds';
import { admitQuota } from './resource-quota';
import { COUNTED } from './quota-usage';
import { admitPodCreate, admitWorkload, preparePodUpdate, prepareWorkloadUpdate, WORKLOAD_KEYS } from './pod-security-modes';
import { registerWebhookConfigDefaults } from './webhooks/config-defaults';

type Mutation = (ctx: RegistryContext, ns: string, obj: Obj) => Promise<void>;

const MUTATIONS: Record<string, Mutation[]> = {
  '/pods': [(c, ns, obj) => admitPodLimitRanges(c, ns, obj), (c, _ns, obj) => admitPodPriority(c, obj), async (_c, _ns, obj) => admitDefaultTolerationSeconds(obj)],
  '/persistentvolumeclaims': [(c, _ns, obj) => admitClaimStorageClass(c, obj)],
};

const nsOf = (obj: Obj) => String(obj.metadata?.namespace ?? '');

/** PodSecurity hooks of a resource key, if it has any. */
function podSecurityHooks(key: string): Pick<ResourceHooks, 'admitCreate' | 'prepareUpdate'> {
  if (key === '/pods') {
    return {
      admitCreate: (c, _r, obj, attrs) => admitPodCreate(c, nsOf(obj), obj, attrs),
      prepareUpdate: (c, _r, ns, attrs) => preparePodUpdate(c, ns, attrs),
    };
  }
  if (WORKLOAD_KEYS.includes(key)) {
    return {
      admitCreate: (c, r, obj, attrs) => admitWorkload(c, r, nsOf(obj), obj, attrs),
      // Workload updates: warnings and audit on the template, never a denial.
      prepareUpdate: (c, r, ns, attrs) => prepareWorkloadUpdate(c, r, ns, attrs),
    };
  }
  return {};
}

/** Call after the resources' own hooks are registered: it wraps them. */
export function registerAdmission(ctx: RegistryContext): void {
  registerWebhookConfigDefaults(ctx);
  for (const key of new Set([...Object.keys(MUTATIONS), ...Object.keys(COUNTED), ...WORKLOAD_KEYS])) {
    const own = ctx.hooks.get(key) ?? {};
    const mutations = MUTATIONS[key] ?? [];
    // Quota is wired where it always was; workloads join only for PodSecurity.
    const quota = key in MUTATIONS || key in COUNTED;
    ctx.hooks.set(key, {
      ...own,
      ...podSecurityHooks(key),
      async beforeCreate(c, r, obj, attrs) {
        const ns = nsOf(obj);
        for (const m of mutations) await m(c, ns, obj);
        if (quota) await admitQuota(c, r, ns, obj);
        return own.beforeCreate?.(c, r, obj, attrs);
      },
    });
  }
}
