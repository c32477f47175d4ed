// node.k8s.io RuntimeClass (v1 and v1beta1 share the hub shape) validation, v1.23:
// pkg/apis/node/validation ValidateRuntimeClass[Update] and the runtimeclass strategy, which
// validates the new object in full on update and then adds the immutability checks. There is no
// defaulting for RuntimeClass in v1 or v1beta1.
import { type FieldError, child, duplicate, index, invalid, notSupported } from './errors';
import type { KindRules } from './kind-rules';
import { validateImmutable, validateLabels } from './meta';
import { isDNS1123Label, isQualifiedName, isValidLabelValue } from './names';
import { validateResources } from './pod-validation';

type Obj = Record<string, any>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const str = (v: unknown): string => (typeof v === 'string' ? v : isSet(v) ? String(v) : '');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** core.Toleration as %#v prints it (TolerationSeconds is a pointer: a stand-in address). */
function goToleration(t: Obj): string {
  const secs = isSet(t.tolerationSeconds) ? '(*int64)(0xc000b1c0a8)' : '(*int64)(nil)';
  return (
    `core.Toleration{Key:${JSON.stringify(str(t.key))}, Operator:${JSON.stringify(str(t.operator))}, ` +
    `Value:${JSON.stringify(str(t.value))}, Effect:${JSON.stringify(str(t.effect))}, TolerationSeconds:${secs}}`
  );
}

/** corevalidation.ValidateTolerations (v1.23). */
function validateCoreTolerations(tolerations: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const ip = index(path, i);
    const key = str(t.key);
    const op = str(t.operator);
    const value = str(t.value);
    const effect = str(t.effect);
    if (key) for (const m of isQualifiedName(key)) errs.push(invalid(child(ip, 'key'), key, m));
    if (!key && op !== 'Exists') {
      errs.push(invalid(child(ip, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (isSet(t.tolerationSeconds) && effect !== 'NoExecute') {
      errs.push(invalid(child(ip, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op === '' || op === 'Equal') {
      const msgs = isValidLabelValue(value);
      if (msgs.length) errs.push(invalid(child(ip, 'operator'), value, msgs.join(';')));
    } else if (op === 'Exists') {
      // Upstream passes the whole toleration as the bad value here.
      if (value) errs.push(invalid(child(ip, 'operator'), t, "value must be empty when `operator` is 'Exists'", goToleration(t)));
    } else {
      errs.push(notSupported(child(ip, 'operator'), op, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(child(ip, 'effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}

/**
 * node validation's validateTolerations: the core checks (upstream appends `tolerations` to a
 * path that already ends in it, so they read `scheduling.tolerations.tolerations[i]...`), then
 * uniqueness on key/operator/value/effect at `scheduling.tolerations[i]`.
 */
function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const items = list(tolerations);
  const errs = validateCoreTolerations(items, child(path, 'tolerations'));
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
