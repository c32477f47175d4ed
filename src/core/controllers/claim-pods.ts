// client-go's PodControllerRefManager.ClaimPods, for the controllers that own pods directly
// (DaemonSet, StatefulSet): an owned pod that still matches is kept, an owned pod that no longer
// matches is released, and a matching orphan is adopted, each by a patch of its ownerReferences
// carrying the pod's uid (so a pod replaced under the same name is not touched). A pod that went
// away or changed meanwhile (404, 409, 422) is skipped: its watch event brings the owner back.
import { ApiCallError, type ApiClient } from './client';
import type { Obj } from '../registry/objects';
import { controllerRefOf, ownerRefTo } from './pods';

export async function claimPods(client: ApiClient, owner: Obj, apiVersion: string, kind: string, pods: Iterable<Obj>, matches: (pod: Obj) => boolean): Promise<Obj[]> {
  const out: Obj[] = [];
  for (const pod of pods) {
    if (pod.metadata.namespace !== owner.metadata.namespace) continue;
    const ref = controllerRefOf(pod);
    const owned = ref?.uid === owner.metadata.uid;
    const match = matches(pod);
    if (!owned && (ref || !match || pod.metadata.deletionTimestamp || owner.metadata.deletionTimestamp)) continue;
    const path = `/api/v1/namespaces/${pod.metadata.namespace}/pods/${pod.metadata.name}`;
    try {
      if (owned && match) out.push(pod);
      else if (owned) await client.patch(path, { metadata: { ownerReferences: [{ $patch: 'delete', uid: owner.metadata.uid }], uid: pod.metadata.uid } });
      else out.push(await client.patch(path, { metadata: { ownerReferences: [ownerRefTo(owner, apiVersion, kind)], uid: pod.metadata.uid } }));
    } catch (err) {
      if (!(err instanceof ApiCallError && (err.code === 404 || err.code === 409 || err.code === 422))) throw err;
    }
  }
  return out;
}
