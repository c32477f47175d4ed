// The FlowSchema status kube-apiserver's APF config controller maintains (v1.23): one
// `Dangling` condition saying whether the referenced PriorityLevelConfiguration exists. It is
// written through the status subresource as the controller's own field manager, only when its
// status, reason or message would change (lastTransitionTime is then the time of the write).
import type { RegistryContext } from '../registry/context';
import type { ServedResource } from '../registry/catalog';
import { rfc3339, type Obj } from '../registry/objects';
import { updateObject } from '../registry/store';

/** How the config controller appears in managedFields. */
export const CONSUMER_FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';

export interface DanglingCondition {
  type: 'Dangling';
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: 'Found' | 'NotFound';
  message: string;
}

/** The condition a FlowSchema should carry, given whether its priority level exists. */
export function desiredDangling(plName: string, exists: boolean): DanglingCondition {
  return exists
    ? { type: 'Dangling', status: 'False', reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} and it exists` }
    : { type: 'Dangling', status: 'True', reason: 'NotFound', message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(plName)} but there is no such object` };
}

function currentDangling(fs: Obj): Obj | undefined {
  const conditions = fs.status?.conditions;
  return Array.isArray(conditions) ? conditions.find((c: Obj) => c?.type === 'Dangling') : undefined;
}

/** Whether the stored condition already says what `want` says (the time does not count). */
export function danglingUpToDate(fs: Obj, want: DanglingCondition): boolean {
  const cur = currentDangling(fs);
  return cur !== undefined && cur.status === want.status && cur.reason === want.reason && cur.message === want.message;
}

/**
 * Writes the condition into the stored FlowSchema, replacing an older Dangling entry in place
 * and keeping any other condition (a strategic merge keyed by type, as kube's patch is).
 */
export async function writeDangling(ctx: RegistryContext, r: ServedResource, name: string, plExists: (plName: string) => boolean): Promise<void> {
  await updateObject(
    ctx,
    r,
    '',
    name,
    (cur) => {
      const plName = String(cur.spec?.priorityLevelConfiguration?.name ?? '');
      const want = desiredDangling(plName, plExists(plName));
      if (danglingUpToDate(cur, want)) return cur;
      const condition = { type: want.type, status: want.status, lastTransitionTime: rfc3339(ctx.now()), reason: want.reason, message: want.message };
      const conditions: Obj[] = Array.isArray(cur.status?.conditions) ? [...cur.status.conditions] : [];
      const at = conditions.findIndex((c) => c?.type === 'Dangling');
      if (at >= 0) conditions[at] = condition;
      else conditions.push(condition);
      return { ...cur, status: { ...cur.status, conditions } };
    },
    { dryRun: false, subresource: 'status', allowCreate: false, checkName: false, owner: { manager: CONSUMER_FIELD_MANAGER } },
  ).catch((err: unknown) => {
    // Deleted meanwhile: nothing to report on.
    if ((err as { reason?: string } | undefined)?.reason !== 'NotFound') throw err;
  });
}
