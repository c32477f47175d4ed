// The ResourceQuota admission plug-in: a create that would take a namespace's usage past a
// quota's hard limit is refused with kube's 403 wording. The quota controller that keeps
// status.used (controllers/builtin/quota-status-controller.ts) counts usage the same way.
import type { RegistryContext } from '../registry/context';
import type { ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import { forbidden } from '../meta/status';
import { addQuantity, compareQuantity, formatQuantity, isZero, parseQuantity, type Quantity } from '../validation/quantity';
import { COUNTED, missingPodCompute, usageOf } from './quota-usage';

const ZERO: Quantity = { unscaled: 0n, scale: 0, format: 'DecimalSI' };

/** Adds keeping the format of the first real value (so memory sums stay in Mi/Gi). */
function plus(a: Quantity, b: Quantity): Quantity {
  return isZero(a) ? b : addQuantity(a, b);
}

/** A counted resource (`group/resource`, v1) when this server serves it. */
export function served(ctx: RegistryContext, key: string): ServedResource | undefined {
  const [group, resource] = key.split('/');
  return ctx.catalog.lookup(group, 'v1', resource);
}

/** The stored objects of one resource in one namespace. */
export async function listNs(ctx: RegistryContext, r: ServedResource, ns: string): Promise<Obj[]> {
  const { kvs } = await ctx.mvcc.range(`${r.keyPrefix}${ns}/`);
  return kvs.map((kv) => JSON.parse(kv.value) as Obj);
}

/** Usage of everything counted in the namespace, for the given quota keys. */
export async function namespaceUsage(ctx: RegistryContext, ns: string, keys: Set<string>): Promise<Map<string, Quantity>> {
  const used = new Map<string, Quantity>();
  for (const k of keys) used.set(k, ZERO);
  for (const key of Object.keys(COUNTED)) {
    const r = served(ctx, key);
    if (!r) continue;
    for (const obj of await listNs(ctx, r, ns)) {
      for (const [k, q] of usageOf(r.info.group, r.info.resource, obj)) if (keys.has(k)) used.set(k, plus(used.get(k) ?? ZERO, q));
    }
  }
  return used;
}

/** k=v pairs sorted by key, joined with commas (quota's prettyPrint). */
function pretty(m: Map<string, Quantity>): string {
  return [...m.keys()].sort().map((k) => `${k}=${formatQuantity(m.get(k)!)}`).join(',');
}

/**
 * Refuses a create that does not fit every quota of its namespace. Most namespaces have no quota: a count of the index says so without a range read, and then
 * the create gets no promise to await (the plug-in answers synchronously).
 */
export function admitQuota(ctx: RegistryContext, r: ServedResource, ns: string, obj: Obj): Promise<void> | undefined {
  const quotas = served(ctx, '/resourcequotas');
  if (!quotas || !ns) return undefined;
  if (ctx.mvcc.count(quotaPrefix(quotas, ns)) === 0) return undefined;
  return admitAgainstQuotas(ctx, r, ns, obj, quotas);
}

/** The last namespace's quota prefix: the same string each create, so its hash is computed once. */
let lastPrefix = { keyPrefix: '', ns: '', prefix: '' };

function quotaPrefix(quotas: ServedResource, ns: string): string {
  if (lastPrefix.ns !== ns || lastPrefix.keyPrefix !== quotas.keyPrefix) lastPrefix = { keyPrefix: quotas.keyPrefix, ns, prefix: `${quotas.keyPrefix}${ns}/` };
  return lastPrefix.prefix;
}

async function admitAgainstQuotas(ctx: RegistryContext, r: ServedResource, ns: string, obj: Obj, quotas: ServedResource): Promise<void> {
  const all = await listNs(ctx, quotas, ns);
  if (!all.length) return;
  const requested = usageOf(r.info.group, r.info.resource, obj);
  const name = String(obj.metadata?.name ?? '');
  for (const quota of all.sort((a, b) => String(a.metadata.name).localeCompare(String(b.metadata.name)))) {
    const hard: Record<string, unknown> = quota.spec?.hard ?? {};
    if (r.info.group === '' && r.info.resource === 'pods') {
      const missing = missingPodCompute(obj, hard);
      if (missing.length) throw forbidden(r.info.group, r.info.resource, name, `failed quota: ${quota.metadata.name}: must specify ${missing.join(',')}`);
    }
    const keys = new Set([...requested.keys()].filter((k) => Object.hasOwn(hard, k)));
    if (!keys.size) continue;
    const used = await namespaceUsage(ctx, ns, keys);
    const failReq = new Map<string, Quantity>();
    const failUsed = new Map<string, Quantity>();
    const failHard = new Map<string, Quantity>();
    for (const k of keys) {
      const limit = parseQuantity(hard[k]);
      if (!limit) continue;
      const after = plus(used.get(k) ?? ZERO, requested.get(k)!);
      if (compareQuantity(after, limit) > 0) {
        failReq.set(k, requested.get(k)!);
        failUsed.set(k, used.get(k) ?? ZERO);
        failHard.set(k, limit);
      }
    }
    if (failReq.size) {
      throw forbidden(r.info.group, r.info.resource, name, `exceeded quota: ${quota.metadata.name}, requested: ${pretty(failReq)}, used: ${pretty(failUsed)}, limited: ${pretty(failHard)}`);
    }
  }
}
