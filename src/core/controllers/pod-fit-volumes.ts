// kube-scheduler v1.23's VolumeBinding plugin, in small: a pod's claims must exist and, unless
// their class waits for the first consumer, be bound before it is placed; a bound claim's volume
// must accept the node (its node affinity); a WaitForFirstConsumer claim needs on the node either
// an Available volume that matches it or a class that can provision (anything but
// kubernetes.io/no-provisioner). On the chosen node the scheduler then pre-binds the matching
// volumes and marks the claims to provision with the selected-node annotation (PreBind), and
// binds the pod only once the PV controller has bound every claim.
import type { Obj } from '../registry/objects';
import { ANN_BIND_COMPLETED, ANN_SELECTED_NODE, claimClass, findBestMatch, volumeFitsNode } from './pv-matching';

export const VOLUME_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const VOLUME_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';

export interface VolumeView {
  claim(namespace: string, name: string): Obj | undefined;
  volume(name: string): Obj | undefined;
  volumes(): Obj[];
  storageClass(name: string): Obj | undefined;
}

/** The writes PreBind makes on the chosen node. */
export interface VolumePreBind {
  /** Volumes to pre-bind to a claim (claimRef), as the scheduler's binder does. */
  prebind: { volume: Obj; claim: Obj }[];
  /** Claims to hand to their provisioner with the selected-node annotation. */
  provision: Obj[];
}

export class PodVolumes {
  /** The PreFilter's refusal, the same for every node (a missing claim, an unbound immediate one). */
  readonly error?: string;
  private readonly bound: Obj[] = [];
  private readonly toBind: Obj[] = [];

  constructor(
    pod: Obj,
    private readonly view: VolumeView,
  ) {
    const ns = String(pod.metadata?.namespace ?? '');
    let immediate = false;
    for (const v of (pod.spec?.volumes ?? []) as Obj[]) {
      const name = v?.persistentVolumeClaim?.claimName;
      if (!name) continue;
      const claim = view.claim(ns, String(name));
      if (!claim) {
        this.error = `persistentvolumeclaim "${name}" not found`;
        return;
      }
      if (claim.metadata?.deletionTimestamp) {
        this.error = `persistentvolumeclaim "${name}" is being deleted`;
        return;
      }
      if (claim.spec?.volumeName) this.bound.push(claim);
      else if (this.delayBinding(claim)) this.toBind.push(claim);
      else immediate = true;
    }
    if (immediate) this.error = UNBOUND_IMMEDIATE;
  }

  private delayBinding(claim: Obj): boolean {
    const name = claimClass(claim);
    return name !== '' && this.view.storageClass(name)?.volumeBindingMode === 'WaitForFirstConsumer';
  }

  /** Every claim bound by the PV controller: the pod may be bound. */
  get ready(): boolean {
    return !this.toBind.length && this.bound.every((c) => c.metadata?.annotations?.[ANN_BIND_COMPLETED] === 'yes' && c.status?.phase === 'Bound');
  }

  /** The Filter for one node. */
  unfitReason(node: Obj): string | undefined {
    for (const claim of this.bound) {
      const volume = this.view.volume(String(claim.spec.volumeName));
      if (volume && !volumeFitsNode(volume, node)) return VOLUME_NODE_CONFLICT;
    }
    return this.plan(node) ? undefined : VOLUME_BIND_CONFLICT;
  }

  /** What PreBind would write on this node, or undefined when a claim cannot be satisfied there. */
  plan(node: Obj): VolumePreBind | undefined {
    const out: VolumePreBind = { prebind: [], provision: [] };
    const taken = new Set<string>();
    for (const claim of this.toBind) {
      const selected = claim.metadata?.annotations?.[ANN_SELECTED_NODE];
      if (selected !== undefined) {
        // Already being provisioned for a node: only that node will do.
        if (selected !== node.metadata?.name) return undefined;
        continue;
      }
      const free = this.view.volumes().filter((v) => !taken.has(String(v.metadata?.name)));
      const volume = findBestMatch(claim, free, true, node);
      if (volume) {
        taken.add(String(volume.metadata.name));
        out.prebind.push({ volume, claim });
        continue;
      }
      const sc = this.view.storageClass(claimClass(claim));
      if (!sc || sc.provisioner === 'kubernetes.io/no-provisioner') return undefined;
      out.provision.push(claim);
    }
    return out;
  }
}
