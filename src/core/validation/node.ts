// node.k8s.io RuntimeClass (v1 and v1beta1 share the hub shape) validation, v1.23:
// pkg/apis/node/validation ValidateRuntimeClass[Update] and the runtimeclass strategy, which
// validates the new object in full on update and then adds the immutability checks. There is no
// defaulting for RuntimeClass in v1 or v1beta1.
import { type FieldError, child, duplicate, index, invalid } from './errors';
import type { KindRules } from './kind-rules';
import { validateImmutable, validateLabels } from './meta';
import { isDNS1123Label } from './names';
import { goToleration, validateResources, validateTolerations as validatePodTolerations } from './pod-validation';
import { isObj, isSet, type Obj } from './values';


const str = (v: unknown): string => (typeof v === 'string' ? v : isSet(v) ? String(v) : '');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);

/**
 * node validation's validateTolerations: the core checks (upstream appends `tolerations` to a
 * path that already ends in it, so they read `scheduling.tolerations.tolerations[i]...`), then
 * uniqueness on key/operator/value/effect at `scheduling.tolerations[i]`.
 */
function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const items = list(tolerations);
  const errs = validatePodTolerations(items, child(path, 'tolerations'));
  const seen = new Set<string>();
  items.forEach((t, i) => {
    const k = JSON.stringify([str(t.key), str(t.operator), str(t.value), str(t.effect)]);
    if (seen.has(k)) errs.push(duplicate(index(path, i), t, goToleration(t)));
    else seen.add(k);
  });
  return errs;
}

function validateRuntimeClass(rc: Obj): FieldError[] {
  const handler = str(rc?.handler);
  // NameIsDNSLabel: an empty handler gets the regex message, not `Required value`.
  const errs = isDNS1123Label(handler).map((m) => invalid('handler', handler, m));
  // PodOverhead is beta (on) in 1.23: podFixed is checked as container limits at `overhead.limits[...]`.
  if (isObj(rc?.overhead)) errs.push(...validateResources({ limits: isObj(rc.overhead.podFixed) ? rc.overhead.podFixed : {} }, 'overhead'));
  if (isObj(rc?.scheduling)) {
    const s = rc.scheduling;
    if (isSet(s.nodeSelector)) errs.push(...validateLabels(s.nodeSelector, 'scheduling.nodeSelector'));
    errs.push(...validateTolerations(s.tolerations, 'scheduling.tolerations'));
  }
  return errs;
}

function validateRuntimeClassUpdate(rc: Obj, old: Obj): FieldError[] {
  return [...validateRuntimeClass(rc), ...validateImmutable(str(rc?.handler), str(old?.handler), 'handler')];
}

export const runtimeClassRules: KindRules = {
  validateCreate: validateRuntimeClass,
  validateUpdate: validateRuntimeClassUpdate,
};
