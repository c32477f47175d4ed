// The Pod's subresources that write the pod itself, as store adapters (its kind spec's
// `subresourceWrites`, decision 0043): ephemeralcontainers (EphemeralContainersStrategy) and
// binding (BindingREST's assignPod, reached by POSTing a Binding).
import type { ServedResource } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { clone, type Obj } from '../registry/objects';
import { updateObject } from '../registry/store';
import type { WriteResult } from '../registry/store-common';
import { withSpecFieldOf, type SubresourceWrite } from '../registry/subresource-write';
import { conflict } from '../meta/status';

/** pods/ephemeralcontainers changes spec.ephemeralContainers only (dropNonEphemeralContainerUpdates). */
export const POD_EPHEMERAL_CONTAINERS_WRITE: SubresourceWrite = {
  prepare: (written, stored) => withSpecFieldOf(written, stored, 'ephemeralContainers'),
};

/** PodScheduled=True as api.UpdatePodCondition sets it: a condition already True is left as it was. */
function withScheduledCondition(status: Obj | undefined, now: number): Obj {
  const conditions = [...((status?.conditions ?? []) as Obj[])];
  const at = conditions.findIndex((c) => c.type === 'PodScheduled');
  const scheduled: Obj = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: new Date(Math.floor(now / 1000) * 1000).toISOString().replace('.000Z', 'Z') };
  if (at < 0) conditions.push(scheduled);
  else if (conditions[at].status !== 'True') conditions[at] = scheduled;
  return { ...(status ?? {}), conditions };
}

/**
 * pods/binding (assignPod): the stored pod gets the written spec.nodeName, the binding's
 * annotations merged into its own, and PodScheduled=True. A pod already on a node, or being
 * deleted, is a Conflict on pods/binding. Not validated as a pod update (spec is otherwise
 * immutable), and the pod it writes is the stored one: nothing else of the written object counts.
 */
export const POD_BINDING_WRITE: SubresourceWrite = {
  byCreate: true,
  skipsValidation: true,
  prepare(written, stored, now) {
    const name = String(stored.metadata?.name ?? '');
    if (stored.metadata?.deletionTimestamp) throw conflict('', 'pods/binding', name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (stored.spec?.nodeName) throw conflict('', 'pods/binding', name, `pod ${name} is already assigned to node ${JSON.stringify(stored.spec.nodeName)}`);
    const next = clone(stored);
    const annotations = written.metadata?.annotations as Record<string, string> | undefined;
    if (annotations && Object.keys(annotations).length) next.metadata.annotations = { ...(next.metadata.annotations ?? {}), ...annotations };
    next.spec = { ...(next.spec ?? {}), nodeName: written.spec?.nodeName };
    next.status = withScheduledCondition(next.status, now);
    return next;
  },
};

/** Binds a pod to the node a (validated and admitted) Binding targets, through pods/binding. */
export function bindPod(ctx: RegistryContext, pods: ServedResource, ns: string, name: string, binding: Obj): Promise<WriteResult> {
  // The pod as the binding asks for it; the binding write above decides what of it is stored.
  const asked = (cur: Obj): Obj => ({ ...cur, metadata: { ...cur.metadata, annotations: binding.metadata?.annotations }, spec: { ...cur.spec, nodeName: String(binding.target.name) } });
  return updateObject(ctx, pods, ns, name, asked, { dryRun: false, subresource: 'binding', allowCreate: false, checkName: false });
}
