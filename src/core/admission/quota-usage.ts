// What an object costs against a ResourceQuota (kube's quota evaluators), for the resources the
// playground tracks: object counts (legacy names and count/<resource>[.<group>]), pod compute
// requests and limits, and claim storage requests.
import type { Obj } from '../registry/objects';
import { addQuantity, compareQuantity, parseQuantity, type Quantity } from '../validation/quantity';

/** Resources counted by quota, as group/resource → the legacy quota name (if any). */
export const COUNTED: Record<string, string | undefined> = {
  '/pods': 'pods',
  '/services': 'services',
  '/configmaps': 'configmaps',
  '/secrets': 'secrets',
  '/persistentvolumeclaims': 'persistentvolumeclaims',
  '/replicationcontrollers': 'replicationcontrollers',
  '/resourcequotas': 'resourcequotas',
};

const ONE: Quantity = { unscaled: 1n, scale: 0, format: 'DecimalSI' };
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function add(usage: Map<string, Quantity>, key: string, q: Quantity): void {
  const have = usage.get(key);
  usage.set(key, have ? addQuantity(have, q) : q);
}

/** Sum over containers, but at least the largest init container (init containers run alone). */
function podCompute(spec: Obj, kind: 'requests' | 'limits'): Map<string, Quantity> {
  const sum = new Map<string, Quantity>();
  for (const c of (spec.containers ?? []) as Obj[]) {
    for (const [k, v] of Object.entries((c.resources?.[kind] ?? {}) as Obj)) {
      const q = parseQuantity(v);
      if (q) add(sum, k, q);
    }
  }
  for (const c of (spec.initContainers ?? []) as Obj[]) {
    for (const [k, v] of Object.entries((c.resources?.[kind] ?? {}) as Obj)) {
      const q = parseQuantity(v);
      const have = sum.get(k);
      if (q && (!have || compareQuantity(q, have) > 0)) sum.set(k, q);
    }
  }
  return sum;
}

/** A pod that finished or is going away no longer uses quota. */
function podCounts(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata?.deletionTimestamp;
}

/** The usage of one object, keyed by quota resource name. */
export function usageOf(group: string, resource: string, obj: Obj): Map<string, Quantity> {
  const usage = new Map<string, Quantity>();
  const key = `${group}/${resource}`;
  if (key === '/pods' && !podCounts(obj)) return usage;
  const legacy = COUNTED[key];
  if (legacy) usage.set(legacy, ONE);
  usage.set(group ? `count/${resource}.${group}` : `count/${resource}`, ONE);
  if (key === '/pods' && isObj(obj.spec)) {
    for (const [k, q] of podCompute(obj.spec, 'requests')) {
      usage.set(`requests.${k}`, q);
      if (k === 'cpu' || k === 'memory') usage.set(k, q);
    }
    for (const [k, q] of podCompute(obj.spec, 'limits')) usage.set(`limits.${k}`, q);
  }
  if (key === '/persistentvolumeclaims') {
    const q = parseQuantity(obj.spec?.resources?.requests?.storage);
    if (q) usage.set('requests.storage', q);
  }
  if (key === '/services') {
    if (obj.spec?.type === 'NodePort' || obj.spec?.type === 'LoadBalancer') usage.set('services.nodeports', { ...ONE, unscaled: BigInt((obj.spec.ports ?? []).length) });
    if (obj.spec?.type === 'LoadBalancer') usage.set('services.loadbalancers', ONE);
  }
  return usage;
}

/** The compute resources a quota constrains that every container of a pod must state. */
export function missingPodCompute(pod: Obj, hard: Record<string, unknown>): string[] {
  const missing: string[] = [];
  const containers = [...((pod.spec?.containers ?? []) as Obj[]), ...((pod.spec?.initContainers ?? []) as Obj[])];
  const check = (quotaKey: string, kind: 'requests' | 'limits', res: string) => {
    if (!(quotaKey in hard)) return;
    if (containers.some((c) => c.resources?.[kind]?.[res] === undefined)) missing.push(quotaKey);
  };
  check('requests.cpu', 'requests', 'cpu');
  check('cpu', 'requests', 'cpu');
  check('requests.memory', 'requests', 'memory');
  check('memory', 'requests', 'memory');
  check('limits.cpu', 'limits', 'cpu');
  check('limits.memory', 'limits', 'memory');
  return [...new Set(missing)].sort();
}
