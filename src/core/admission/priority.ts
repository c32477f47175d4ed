// The Priority admission plug-in: a pod's priorityClassName (or the cluster's globalDefault
// class) decides spec.priority and spec.preemptionPolicy; a pod may not name a class that does
// not exist, nor claim a priority of its own that differs from its class.
import type { RegistryContext } from '../registry/context';
import type { Obj } from '../registry/objects';
import { objectKey } from '../registry/catalog';
import { forbidden } from '../meta/status';
import { SYSTEM_PRIORITY_CLASSES } from '../validation';

/** The system classes are honoured even before the bootstrap has stored them. */
const SYSTEM_CLASSES: Record<string, number> = Object.fromEntries(SYSTEM_PRIORITY_CLASSES.map((c) => [c.name, c.value]));

async function findClass(ctx: RegistryContext, name: string | undefined): Promise<{ name: string; value: number; preemptionPolicy?: string } | undefined> {
  const pcs = ctx.catalog.lookup('scheduling.k8s.io', 'v1', 'priorityclasses');
  if (!pcs) return undefined;
  if (name) {
    const kv = await ctx.mvcc.get(objectKey(pcs, '', name));
    if (kv) {
      const pc = JSON.parse(kv.value) as Obj;
      return { name, value: Number(pc.value ?? 0), preemptionPolicy: pc.preemptionPolicy };
    }
    return Object.hasOwn(SYSTEM_CLASSES, name) ? { name, value: SYSTEM_CLASSES[name], preemptionPolicy: 'PreemptLowerPriority' } : undefined;
  }
  // No class named: the globalDefault class, the lowest value if several claim to be it.
  const { kvs } = await ctx.mvcc.range(pcs.keyPrefix);
  const defaults = kvs.map((kv) => JSON.parse(kv.value) as Obj).filter((pc) => pc.globalDefault === true);
  defaults.sort((a, b) => Number(a.value ?? 0) - Number(b.value ?? 0));
  const d = defaults[0];
  return d ? { name: d.metadata.name, value: Number(d.value ?? 0), preemptionPolicy: d.preemptionPolicy } : undefined;
}

export async function admitPodPriority(ctx: RegistryContext, pod: Obj): Promise<void> {
  const spec = pod.spec;
  if (!spec || typeof spec !== 'object') return;
  const named = typeof spec.priorityClassName === 'string' && spec.priorityClassName ? spec.priorityClassName : undefined;
  const pc = await findClass(ctx, named);
  const podName = String(pod.metadata?.name ?? '');
  if (!pc) {
    if (named) throw forbidden('', 'pods', podName, `no PriorityClass with name ${named} was found`);
    return; // no class at all: the pod defaults give priority 0
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== pc.value) {
    throw forbidden('', 'pods', podName, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${pc.value} from the given PriorityClass name`);
  }
  if (pc.preemptionPolicy && spec.preemptionPolicy && spec.preemptionPolicy !== pc.preemptionPolicy) {
    throw forbidden('', 'pods', podName, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${pc.preemptionPolicy} from the given PriorityClass name`);
  }
  spec.priorityClassName = pc.name;
  spec.priority = pc.value;
  if (pc.preemptionPolicy) spec.preemptionPolicy = pc.preemptionPolicy;
}
