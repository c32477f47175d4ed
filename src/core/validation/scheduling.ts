// PriorityClass defaulting and validation (scheduling.k8s.io/v1, kube-apiserver v1.23): a name
// with the `system-` prefix must be one of the system classes with its value; a user class may
// not exceed one billion; value and preemptionPolicy never change.
import type { FieldError } from '../meta/status';
import type { KindRules } from './kind-rules';

const SYSTEM_PREFIX = 'system-';
const HIGHEST_USER_DEFINABLE = 1_000_000_000;
const SYSTEM_CRITICAL = 2 * HIGHEST_USER_DEFINABLE;

/** The system classes exactly as kube-apiserver creates them (their descriptions are what clients read). */
export const SYSTEM_PRIORITY_CLASSES: ReadonlyArray<{ name: string; value: number; description: string }> = [
  { name: 'system-node-critical', value: SYSTEM_CRITICAL + 1000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: SYSTEM_CRITICAL, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

/** kube's IsKnownSystemPriorityClass: why a `system-` class is not one of the system classes, or undefined. */
function notSystemClass(name: string, value: unknown, globalDefault: unknown): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (value !== known.value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault === true) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export const priorityClassRules: KindRules = {
  defaults(pc) {
    pc.preemptionPolicy ??= 'PreemptLowerPriority';
  },
  validateCreate(pc) {
    const errs: FieldError[] = [];
    const name = String(pc.metadata?.name ?? '');
    if (name.startsWith(SYSTEM_PREFIX)) {
      const why = notSystemClass(name, pc.value, pc.globalDefault);
      if (why) errs.push({ type: 'FieldValueForbidden', field: 'metadata.name', detail: `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${why}` });
    } else if (typeof pc.value === 'number' && pc.value > HIGHEST_USER_DEFINABLE) {
      errs.push({ type: 'FieldValueForbidden', field: 'value', detail: `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE}` });
    }
    return errs;
  },
  validateUpdate(pc, old) {
    const errs: FieldError[] = [];
    if (pc.value !== old.value) errs.push({ type: 'FieldValueForbidden', field: 'value', detail: 'may not be changed in an update.' });
    if (pc.preemptionPolicy !== old.preemptionPolicy) errs.push({ type: 'FieldValueInvalid', field: 'preemptionPolicy', value: pc.preemptionPolicy ?? null, detail: 'field is immutable' });
    return errs;
  },
};
