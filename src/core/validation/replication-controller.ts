// v1 ReplicationController and PodTemplate: core/v1 SetDefaults_ReplicationController and the pod
// template defaults, core/validation ValidateReplicationController[Update|StatusUpdate] and
// ValidatePodTemplate[Update] (v1.23).
import { type FieldError, forbidden, index, invalid, nonNegative, notSupported, required } from './errors';
import { goStringMap } from './gofmt';
import type { KindRules } from './kind-rules';
import { defaultPodTemplate } from './pod-defaults';
import { validatePodTemplateSpec } from './pod-validation';
import { isObj, type Obj } from './values';


const nonEmptyMap = (v: unknown): v is Record<string, string> => isObj(v) && Object.keys(v).length > 0;

/**
 * Template defaults. A template's PodSpec is a struct in Go, so a template sent without `spec`
 * is defaulted (and then reported) as an empty pod spec, not left without one.
 */
function defaultTemplate(template: Obj): void {
  if (!isObj(template.spec)) template.spec = {};
  defaultPodTemplate(template);
}

// ---- ReplicationController ----

function defaultReplicationController(rc: Obj): void {
  const spec: Obj = isObj(rc.spec) ? rc.spec : (rc.spec = {});
  const template = isObj(spec.template) ? spec.template : undefined;
  const labels = template && isObj(template.metadata) ? template.metadata.labels : undefined;
  // The selector and the object's labels come from the template's labels when they are empty.
  if (nonEmptyMap(labels)) {
    if (!nonEmptyMap(spec.selector)) spec.selector = { ...labels };
    const meta: Obj = isObj(rc.metadata) ? rc.metadata : (rc.metadata = {});
    if (!nonEmptyMap(meta.labels)) meta.labels = { ...labels };
  }
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  if (template) defaultTemplate(template);
  // ReplicationControllerStatus is a struct whose `replicas` has no omitempty: Go always writes
  // `status: {replicas: 0}` at least (kubectl's CURRENT column reads it).
  const status: Obj = isObj(rc.status) ? rc.status : (rc.status = {});
  if (status.replicas === undefined || status.replicas === null) status.replicas = 0;
}

/** labels.Set(selector).AsSelector().Matches(labels): every selector pair present and equal. */
function mapSelectorMatches(selector: Record<string, string>, labels: unknown): boolean {
  const l: Obj = isObj(labels) ? labels : {};
  return Object.entries(selector).every(([k, v]) => Object.prototype.hasOwnProperty.call(l, k) && l[k] === v);
}

/** ValidateReadOnlyPersistentDisks: a GCE PD shared by several replicas must be read-only. */
function validateReadOnlyPersistentDisks(volumes: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(volumes) ? volumes : []).forEach((v: unknown, i: number) => {
    if (isObj(v) && isObj(v.gcePersistentDisk) && v.gcePersistentDisk.readOnly !== true) {
      errs.push(invalid(`${index(path, i)}.gcePersistentDisk.readOnly`, false, 'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only'));
    }
  });
  return errs;
}

/** ValidatePodTemplateSpecForRC. */
function validateTemplateForRC(template: unknown, selector: unknown, replicas: number, path: string): FieldError[] {
  if (!isObj(template)) return [required(path)];
  const errs: FieldError[] = [];
  const labels = isObj(template.metadata) ? template.metadata.labels : undefined;
  // An empty selector is reported on its own (spec.selector: Required value), not as a mismatch.
  if (nonEmptyMap(selector) && !mapSelectorMatches(selector, labels)) {
    errs.push(invalid(`${path}.metadata.labels`, labels ?? null, '`selector` does not match template `labels`', goStringMap(labels)));
  }
  errs.push(...validatePodTemplateSpec(template, path));
  const podSpec: Obj = isObj(template.spec) ? template.spec : {};
  if (replicas > 1) errs.push(...validateReadOnlyPersistentDisks(podSpec.volumes, `${path}.spec.volumes`));
  if (podSpec.restartPolicy !== 'Always') errs.push(notSupported(`${path}.spec.restartPolicy`, podSpec.restartPolicy ?? '', ['Always']));
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
    errs.push(forbidden(`${path}.spec.activeDeadlineSeconds`, 'activeDeadlineSeconds in ReplicationController is not Supported'));
  }
  return errs;
}

/** ValidateReplicationControllerSpec. */
function validateReplicationController(rc: Obj): FieldError[] {
  const spec: Obj = isObj(rc.spec) ? rc.spec : {};
  const errs = nonNegative(spec.minReadySeconds, 'spec.minReadySeconds');
  if (!nonEmptyMap(spec.selector)) errs.push(required('spec.selector'));
  errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 0;
  errs.push(...validateTemplateForRC(spec.template, spec.selector, replicas, 'spec.template'));
  return errs;
}

/** ValidateReplicationControllerStatus (the status subresource's check). */
function validateReplicationControllerStatus(rc: Obj): FieldError[] {
  const s: Obj = isObj(rc.status) ? rc.status : {};
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) errs.push(...nonNegative(s[f], `status.${f}`));
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  const msg = 'cannot be greater than status.replicas';
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if (n(s[f]) > n(s.replicas)) errs.push(invalid(`status.${f}`, n(s[f]), msg));
  }
  if (n(s.availableReplicas) > n(s.readyReplicas)) errs.push(invalid('status.availableReplicas', n(s.availableReplicas), 'cannot be greater than readyReplicas'));
  return errs;
}

/**
 * Updates re-validate the spec (the selector may change, unlike apps/v1's); a status write
 * checks the status only. Upstream's strategy runs the spec checks twice on update (create and
 * update validation), which only repeats causes: they are reported once here.
 */
export const replicationControllerRules: KindRules = {
  defaults: defaultReplicationController,
  validateCreate: validateReplicationController,
  validateUpdate: (rc, _old, subresource) => (subresource === 'status' ? validateReplicationControllerStatus(rc) : validateReplicationController(rc)),
};

// ---- PodTemplate ----

/** PodTemplate.template is a struct: it is always there and its pod spec always defaulted. */
function defaultPodTemplateObject(pt: Obj): void {
  const template: Obj = isObj(pt.template) ? pt.template : (pt.template = {});
  defaultTemplate(template);
}

const validatePodTemplateObject = (pt: Obj): FieldError[] => validatePodTemplateSpec(pt.template, 'template');

export const podTemplateRules: KindRules = {
  defaults: defaultPodTemplateObject,
  validateCreate: validatePodTemplateObject,
  validateUpdate: validatePodTemplateObject,
};
