// Which PersistentVolume suits a claim (v1.23 pkg/controller/volume/persistentvolume/index.go
// and util.FindMatchingVolume): a volume pre-bound to the claim wins; otherwise an Available
// volume of the claim's class, volume mode and selector, with at least the requested size and
// every requested access mode, and — on the scheduler's path — a node affinity the node meets.
// Among those, the one with the fewest access modes, then the smallest.
import type { Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { milli } from './pod-fit';

export const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';
export const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
export const ANN_STORAGE_PROVISIONER_BETA = 'volume.beta.kubernetes.io/storage-provisioner';
export const ANN_STORAGE_PROVISIONER = 'volume.kubernetes.io/storage-provisioner';
export const ANN_SELECTED_NODE = 'volume.kubernetes.io/selected-node';
export const ANN_PROVISIONED_BY = 'pv.kubernetes.io/provisioned-by';

/** storagehelpers.GetPersistentVolumeClaimClass: the field, else the old beta annotation, else "". */
export function claimClass(claim: Obj): string {
  const beta = claim.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (typeof beta === 'string') return beta;
  return String(claim.spec?.storageClassName ?? '');
}

export function volumeClass(volume: Obj): string {
  const beta = volume.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'];
  if (typeof beta === 'string') return beta;
  return String(volume.spec?.storageClassName ?? '');
}

/** IsVolumeBoundToClaim: the volume's claimRef names this claim (and its uid, when it has one). */
export function isVolumeBoundToClaim(volume: Obj, claim: Obj): boolean {
  const ref = volume.spec?.claimRef;
  if (!ref) return false;
  if (ref.name !== claim.metadata?.name || ref.namespace !== claim.metadata?.namespace) return false;
  return !ref.uid || ref.uid === claim.metadata?.uid;
}

function requestedBytes(claim: Obj): number {
  return milli(claim.spec?.resources?.requests?.storage);
}

function capacityBytes(volume: Obj): number {
  return milli(volume.spec?.capacity?.storage);
}

const modesOf = (o: Obj): string[] => (Array.isArray(o.spec?.accessModes) ? (o.spec.accessModes as string[]) : []);

function volumeModeMismatch(claim: Obj, volume: Obj): boolean {
  return (claim.spec?.volumeMode ?? 'Filesystem') !== (volume.spec?.volumeMode ?? 'Filesystem');
}

/** CheckNodeAffinity: the volume's required node affinity accepts a node with these labels and name. */
export function volumeFitsNode(volume: Obj, node: Obj): boolean {
  const terms = volume.spec?.nodeAffinity?.required?.nodeSelectorTerms;
  if (!Array.isArray(terms)) return true;
  const labels = { ...(node.metadata?.labels ?? {}) } as Record<string, string>;
  return (terms as Obj[]).some((term) => {
    const exprs = (term.matchExpressions ?? []) as Obj[];
    const fields = (term.matchFields ?? []) as Obj[];
    if (!exprs.length && !fields.length) return false;
    const check = (e: Obj, value: string | undefined) => {
      const values = (e.values ?? []) as string[];
      switch (e.operator) {
        case 'In':
          return value !== undefined && values.includes(value);
        case 'NotIn':
          return value === undefined || !values.includes(value);
        case 'Exists':
          return value !== undefined;
        case 'DoesNotExist':
          return value === undefined;
        case 'Gt':
          return value !== undefined && Number(value) > Number(values[0]);
        case 'Lt':
          return value !== undefined && Number(value) < Number(values[0]);
        default:
          return false;
      }
    };
    return exprs.every((e) => check(e, labels[String(e.key)])) && fields.every((f) => f.key === 'metadata.name' && check(f, String(node.metadata?.name)));
  });
}

/**
 * findBestMatchForClaim. `delayBinding` (WaitForFirstConsumer, as the PV controller sees it)
 * returns only a volume pre-bound to the claim; `node` (the scheduler's path) also checks the
 * volume's node affinity.
 */
export function findBestMatch(claim: Obj, volumes: readonly Obj[], delayBinding: boolean, node?: Obj): Obj | undefined {
  const wanted = modesOf(claim);
  const requested = requestedBytes(claim);
  let selector: ReturnType<typeof labelSelectorFromObject> | undefined;
  try {
    selector = claim.spec?.selector ? labelSelectorFromObject(claim.spec.selector) : undefined;
  } catch {
    return undefined;
  }
  let best: Obj | undefined;
  for (const volume of volumes) {
    const modes = modesOf(volume);
    if (!wanted.every((m) => modes.includes(m))) continue;
    const boundToThis = isVolumeBoundToClaim(volume, claim);
    if (volume.spec?.claimRef && !boundToThis) continue;
    if (capacityBytes(volume) < requested) continue;
    if (volumeModeMismatch(claim, volume)) continue;
    if (volume.metadata?.deletionTimestamp) continue;
    const fitsNode = !node || volumeFitsNode(volume, node);
    if (boundToThis) return fitsNode ? volume : undefined;
    if (!fitsNode) continue;
    if (volume.status?.phase !== 'Available') continue;
    if (selector && !matchesLabels(selector, volume.metadata?.labels ?? {})) continue;
    if (volumeClass(volume) !== claimClass(claim)) continue;
    // The PV controller leaves unbound volumes of a delayed claim to the scheduler.
    if (delayBinding && !node) continue;
    if (!best || modesOf(volume).length < modesOf(best).length || (modesOf(volume).length === modesOf(best).length && capacityBytes(volume) < capacityBytes(best))) best = volume;
  }
  return best;
}
