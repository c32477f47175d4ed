// The counts a ReplicaSet's sync reports (active, ready, fully labeled pods), kept up to date from
// the pod informer's events instead of recounted over every pod on every sync. A 1,000-replica
// ReplicaSet syncs on nearly every one of its pods' events; recounting made each sync
// O(pods) while only one pod had changed.
//
// A tally is made the first time a sync asks for an owner (one walk over its pods, from the
// informer's controller index) and then moves by each event's difference: the old object's share
// taken away, the new one's added. It is kept against what it was counted with (the owner's
// namespace, selector and template labels): if the owner's sync asks with others, it is counted
// again. The informer calls its handlers synchronously after each change to its cache, so at any
// point a sync reads it, the tally agrees with the cache.
import type { Obj } from '../registry/objects';
import type { Informer } from './informer';
import { podFacts } from './pod-memo';
import { podsControlledBy } from './claim-pods';

/** What an owner's claim and status need of its pods. */
export interface PodCounts {
  /** Controlled pods in the owner's namespace that match its selector and are active. */
  active: number;
  /** Of those, Ready. */
  ready: number;
  /** Of those, carrying the template's labels. */
  fullyLabeled: number;
  /** Controlled pods in the owner's namespace the selector no longer matches (a claim releases them). */
  unmatched: number;
}

/** What the counts were made against: a change of any of these is a new tally. */
export interface TallyBasis {
  namespace: string;
  /** Identifies `matches` and `fullyLabeled` (the selector's and the template labels' text). */
  key: string;
  matches(pod: Obj): boolean;
  fullyLabeled(pod: Obj): boolean;
}

interface Tally {
  basis: TallyBasis;
  counts: PodCounts;
}

const none = (): PodCounts => ({ active: 0, ready: 0, fullyLabeled: 0, unmatched: 0 });

/** Adds (sign 1) or takes away (sign -1) one pod's share of the counts. */
function count(into: PodCounts, basis: TallyBasis, pod: Obj, sign: 1 | -1): void {
  if (pod.metadata?.namespace !== basis.namespace) return;
  if (!basis.matches(pod)) {
    into.unmatched += sign;
    return;
  }
  const facts = podFacts(pod);
  if (!facts.active) return;
  into.active += sign;
  if (facts.ready) into.ready += sign;
  if (basis.fullyLabeled(pod)) into.fullyLabeled += sign;
}

export class OwnedPodTally {
  /** By the owner's uid. */
  private readonly tallies = new Map<string, Tally>();

  constructor(private readonly pods: Informer) {
    const move = (pod: Obj, sign: 1 | -1) => {
      const facts = podFacts(pod);
      if (!facts.hasController) return;
      const tally = this.tallies.get(String(facts.controllerUid));
      if (tally) count(tally.counts, tally.basis, pod, sign);
    };
    pods.addHandlers({
      onAdd: (pod) => move(pod, 1),
      onUpdate: (pod, old) => {
        move(old, -1);
        move(pod, 1);
      },
      onDelete: (pod) => move(pod, -1),
    });
  }

  /** The counts of the pods the owner with `uid` controls, as of the informer's cache now (a copy). */
  counts(uid: string, basis: TallyBasis): PodCounts {
    let tally = this.tallies.get(uid);
    if (!tally || tally.basis.key !== basis.key || tally.basis.namespace !== basis.namespace) {
      const counts = none();
      for (const pod of podsControlledBy(this.pods, uid)) count(counts, basis, pod, 1);
      tally = { basis, counts };
      this.tallies.set(uid, tally);
    }
    return { ...tally.counts };
  }

  /** The owner is gone. */
  forget(uid: string): void {
    this.tallies.delete(uid);
  }
}
