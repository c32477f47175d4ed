// The DefaultTolerationSeconds admission plug-in (on by default in kube-apiserver v1.23): a pod
// that does not tolerate the node lifecycle controller's NoExecute taints gets tolerations for
// node.kubernetes.io/not-ready and node.kubernetes.io/unreachable for 300 s, so its pods stay
// five minutes on a node that stops answering before the taint manager evicts them.
import type { Obj } from '../registry/objects';

/** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
const DEFAULT_SECONDS = 300;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** A toleration with this key (or no key) and effect NoExecute (or none) already covers the taint. */
function covers(t: Obj, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect);
}

export function admitDefaultTolerationSeconds(pod: Obj): void {
  const spec = pod.spec;
  if (!spec || typeof spec !== 'object') return;
  // Wrong shapes are for validation to refuse, with its own message.
  if (spec.tolerations !== undefined && spec.tolerations !== null && !Array.isArray(spec.tolerations)) return;
  const tolerations = ((spec.tolerations ?? []) as unknown[]).filter((t): t is Obj => typeof t === 'object' && t !== null);
  const added: Obj[] = [];
  for (const key of [NOT_READY, UNREACHABLE]) {
    if (!tolerations.some((t) => covers(t, key))) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_SECONDS });
  }
  if (added.length) spec.tolerations = [...((spec.tolerations ?? []) as unknown[]), ...added];
}
