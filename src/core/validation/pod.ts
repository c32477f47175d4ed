// Pod rules: defaults, ValidatePodCreate's spec checks, and ValidatePodUpdate's spec immutability.
import { type FieldError, forbidden } from './errors';
import { semanticEqual } from './gofmt';
import type { KindRules } from './kind-rules';
import { defaultPod } from './pod-defaults';
import { validatePodSpec } from './pod-validation';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v : []);

const POD_UPDATE_MESSAGE =
  'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** The old spec with the fields a Pod update may change taken from the new spec. */
function mungedOldSpec(spec: Obj, old: Obj): Obj {
  const m: Obj = JSON.parse(JSON.stringify(old ?? {}));
  for (const f of ['containers', 'initContainers'] as const) {
    const next: Obj[] = Array.isArray(spec[f]) ? spec[f] : [];
    if (Array.isArray(m[f])) m[f].forEach((c: Obj, i: number) => next[i] && c && (c.image = next[i].image));
  }
  m.activeDeadlineSeconds = spec.activeDeadlineSeconds;
  m.tolerations = spec.tolerations;
  if (typeof old?.terminationGracePeriodSeconds === 'number' && old.terminationGracePeriodSeconds < 0 && spec.terminationGracePeriodSeconds === 1) {
    m.terminationGracePeriodSeconds = 1;
  }
  return m;
}

/** ValidatePodEphemeralContainersUpdate: ephemeral containers may be added, never removed or changed. */
function validateEphemeralContainersUpdate(pod: Obj, old: Obj): FieldError[] {
  const errs = validatePodSpec(pod.spec, 'spec');
  const path = 'spec.ephemeralContainers';
  const next = new Map<string, Obj>();
  for (const c of list(pod.spec?.ephemeralContainers)) next.set(c.name, c);
  for (const c of list(old?.spec?.ephemeralContainers)) {
    const now = next.get(c.name);
    // kube's messages end with a newline.
    if (!now) errs.push(forbidden(path, `existing ephemeral containers ${JSON.stringify(c.name)} may not be removed\n`));
    else if (!semanticEqual(now, c)) errs.push(forbidden(`${path}.${c.name}`, `existing ephemeral containers ${JSON.stringify(c.name)} may not be changed\n`));
  }
  return errs;
}

function validatePodUpdate(pod: Obj, old: Obj, subresource = ''): FieldError[] {
  if (subresource === 'ephemeralcontainers') return validateEphemeralContainersUpdate(pod, old);
  const errs = validatePodSpec(pod.spec, 'spec');
  if (!semanticEqual(pod.spec ?? {}, mungedOldSpec(pod.spec ?? {}, old?.spec ?? {}))) {
    // Upstream appends a cmp.Diff of the specs after the message; we leave the diff out.
    errs.push(forbidden('spec', POD_UPDATE_MESSAGE));
  }
  return errs;
}

export const podRules: KindRules = {
  defaults: defaultPod,
  validateCreate(pod) {
    const errs = validatePodSpec(pod.spec, 'spec');
    // Only the ephemeralcontainers subresource adds them.
    if (list(pod.spec?.ephemeralContainers).length > 0) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
    return errs;
  },
  validateUpdate: validatePodUpdate,
};
