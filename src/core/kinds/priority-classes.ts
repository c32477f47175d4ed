// The system PriorityClasses as kube-apiserver keeps them: its scheduling bootstrap creates them
// when missing, and its PriorityClass storage refuses to delete them. (Their validation and
// defaulting are in validation/scheduling.ts.)
import { objectKey } from '../registry/catalog';
import type { RegistryContext, ResourceHooks } from '../registry/context';
import { createObject } from '../registry/store';
import { forbidden } from '../meta/status';
import { SYSTEM_PRIORITY_CLASSES } from '../validation';

const GROUP = 'scheduling.k8s.io';

/** PriorityClass's hooks (its kind spec's, kinds/cluster.ts). */
export function priorityClassHooks(): ResourceHooks {
  return {
    admitDelete(_c, _r, name) {
      if (SYSTEM_PRIORITY_CLASSES.some((c) => c.name === name)) throw forbidden(GROUP, 'priorityclasses', name, 'this is a system priority class and cannot be deleted');
    },
  };
}

/** Creates the system classes that are missing (kube's scheduling/bootstrap-system-priority-classes). */
export async function bootstrapPriorityClasses(ctx: RegistryContext): Promise<void> {
  const r = ctx.catalog.lookup(GROUP, 'v1', 'priorityclasses');
  if (!r) return;
  for (const c of SYSTEM_PRIORITY_CLASSES) {
    if (await ctx.mvcc.get(objectKey(r, '', c.name))) continue;
    await createObject(ctx, r, '', { metadata: { name: c.name }, value: c.value, description: c.description }, false);
  }
}
