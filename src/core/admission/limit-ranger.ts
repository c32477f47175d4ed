// The LimitRanger admission plug-in's defaulting: containers without a request or limit for a
// resource get the namespace's LimitRange defaults, and the pod is annotated with what was set
// (kubernetes.io/limit-ranger). Min/max enforcement is not done here.
import type { RegistryContext } from '../registry/context';
import type { Obj } from '../registry/objects';
import { ownValue, setOwnKey } from '../codec/own-keys';

const ANNOTATION = 'kubernetes.io/limit-ranger';

type ResourceList = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** SetDefaults_LimitRangeItem for Container items: default ← max, defaultRequest ← default, then min. */
function containerDefaults(item: Obj): { limits: ResourceList; requests: ResourceList } {
  const limits: ResourceList = { ...(item.default ?? {}) };
  const requests: ResourceList = { ...(item.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries((item.max ?? {}) as ResourceList)) if (!Object.hasOwn(limits, k)) setOwnKey(limits, k, v);
  for (const [k, v] of Object.entries(limits)) if (!Object.hasOwn(requests, k)) setOwnKey(requests, k, v);
  for (const [k, v] of Object.entries((item.min ?? {}) as ResourceList)) if (!Object.hasOwn(requests, k)) setOwnKey(requests, k, v);
  return { limits, requests };
}

/** Fills one container's missing requests and limits; returns the annotation parts it caused. */
function mergeContainer(c: Obj, defaults: { limits: ResourceList; requests: ResourceList }, containerType: string): string[] {
  if (!isObj(c.resources)) c.resources = {};
  const res = c.resources as Obj;
  // kube decodes pods (requests default to limits) before admission runs: do it first here too,
  // so a container's own limit wins over the LimitRange's defaultRequest.
  if (isObj(res.limits)) {
    const req: Obj = isObj(res.requests) ? res.requests : {};
    for (const [k, v] of Object.entries(res.limits)) if (ownValue(req, k) === undefined) setOwnKey(req, k, v);
    res.requests = req;
  }
  const setRequests: string[] = [];
  const setLimits: string[] = [];
  for (const [k, v] of Object.entries(defaults.requests)) {
    if (isObj(res.requests) && res.requests[k] !== undefined) continue;
    res.requests = { ...(isObj(res.requests) ? res.requests : {}), [k]: v };
    setRequests.push(k);
  }
  for (const [k, v] of Object.entries(defaults.limits)) {
    if (isObj(res.limits) && res.limits[k] !== undefined) continue;
    res.limits = { ...(isObj(res.limits) ? res.limits : {}), [k]: v };
    setLimits.push(k);
  }
  const out: string[] = [];
  if (setRequests.length) out.push(`${setRequests.sort().join(', ')} request for ${containerType} ${c.name}`);
  if (setLimits.length) out.push(`${setLimits.sort().join(', ')} limit for ${containerType} ${c.name}`);
  return out;
}

export async function admitPodLimitRanges(ctx: RegistryContext, ns: string, pod: Obj): Promise<void> {
  const lrs = ctx.catalog.lookup('', 'v1', 'limitranges');
  if (!lrs || !isObj(pod.spec)) return;
  const { kvs } = await ctx.mvcc.range(`${lrs.keyPrefix}${ns}/`);
  const items = kvs.flatMap((kv) => ((JSON.parse(kv.value) as Obj).spec?.limits ?? []) as Obj[]).filter((i) => i.type === 'Container');
  if (!items.length) return;
  const notes: string[] = [];
  for (const item of items) {
    const defaults = containerDefaults(item);
    for (const c of (pod.spec.containers ?? []) as Obj[]) notes.push(...mergeContainer(c, defaults, 'container'));
    for (const c of (pod.spec.initContainers ?? []) as Obj[]) notes.push(...mergeContainer(c, defaults, 'init container'));
  }
  if (!notes.length) return;
  if (!isObj(pod.metadata.annotations)) pod.metadata.annotations = {};
  pod.metadata.annotations[ANNOTATION] = `LimitRanger plugin set: ${notes.join('; ')}`;
}
