// apps/v1 workloads: Deployment, ReplicaSet, StatefulSet, DaemonSet (apps/v1 defaults and
// pkg/apis/apps/validation, v1.23). Templates are validated as pod specs under spec.template.
import { type FieldError, forbidden, invalid, nonNegative, notSupported, required, FIELD_IMMUTABLE } from './errors';
import { goIntOrString, goLabelSelector, goStringMap, semanticEqual } from './gofmt';
import type { KindRules } from './kind-rules';
import { selectorIsEmpty, selectorIsValid, selectorMatches, validateLabelSelector } from './meta';
import { isValidPercent } from './names';
import { defaultPodTemplate } from './pod-defaults';
import { validatePodTemplateSpec } from './pod-validation';
import { defaultPVC, validatePVCSpec } from './pvc';

type Obj = Record<string, any>;

function specOf(obj: Obj): Obj {
  return obj.spec && typeof obj.spec === 'object' ? obj.spec : (obj.spec = {});
}

function templateLabels(spec: Obj): Record<string, string> | undefined {
  return spec.template?.metadata?.labels;
}

/** The selector + template checks shared by the replica-managing workloads. */
function validateSelectorAndTemplate(spec: Obj, what: string, restartAlwaysOnly = true): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec.selector) errs.push(required('spec.selector'));
  else {
    errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
    if (selectorIsEmpty(spec.selector)) errs.push(invalid('spec.selector', spec.selector, `empty selector is invalid for ${what}`, goLabelSelector(spec.selector)));
  }
  if (!selectorIsValid(spec.selector)) {
    errs.push(invalid('spec.selector', spec.selector, 'invalid label selector', goLabelSelector(spec.selector)));
    return errs;
  }
  if (!spec.template) {
    errs.push(required('spec.template'));
    return errs;
  }
  // A nil selector matches nothing, so a missing selector also reports the label mismatch.
  const labels = templateLabels(spec);
  const everything = spec.selector && selectorIsEmpty(spec.selector);
  if (!everything && !selectorMatches(spec.selector, labels)) {
    errs.push(invalid('spec.template.metadata.labels', labels ?? null, '`selector` does not match template `labels`', goStringMap(labels)));
  }
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  const rp = spec.template.spec?.restartPolicy;
  if (restartAlwaysOnly && rp !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', rp ?? '', ['Always']));
  return errs;
}

function validatePositiveIntOrPercent(v: unknown, field: string): FieldError[] {
  if (typeof v === 'string') return isValidPercent(v).map((m) => invalid(field, v, m, goIntOrString(v)));
  if (typeof v === 'number') return nonNegative(v, field);
  return [];
}

function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  const m = /^([0-9]+)%$/.exec(String(v ?? ''));
  return m ? Number(m[1]) : -1;
}

function notMoreThan100Percent(v: unknown, field: string): FieldError[] {
  if (typeof v !== 'string' || !/^[0-9]+%$/.test(v)) return [];
  return intOrPercentValue(v) > 100 ? [invalid(field, v, 'must not be greater than 100%', goIntOrString(v))] : [];
}

function validateRollingUpdate(ru: Obj, path: string): FieldError[] {
  const errs = [...validatePositiveIntOrPercent(ru.maxUnavailable, `${path}.maxUnavailable`), ...validatePositiveIntOrPercent(ru.maxSurge, `${path}.maxSurge`)];
  if (intOrPercentValue(ru.maxUnavailable) === 0 && intOrPercentValue(ru.maxSurge) === 0) {
    errs.push(invalid(`${path}.maxUnavailable`, ru.maxUnavailable, 'may not be 0 when `maxSurge` is 0', goIntOrString(ru.maxUnavailable)));
  }
  errs.push(...notMoreThan100Percent(ru.maxUnavailable, `${path}.maxUnavailable`));
  return errs;
}

// ---- Deployment ----

function deploymentDefaults(d: Obj): void {
  const spec = specOf(d);
  spec.replicas ??= 1;
  const strategy: Obj = spec.strategy && typeof spec.strategy === 'object' ? spec.strategy : (spec.strategy = {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru: Obj = strategy.rollingUpdate && typeof strategy.rollingUpdate === 'object' ? strategy.rollingUpdate : (strategy.rollingUpdate = {});
    ru.maxUnavailable ??= '25%';
    ru.maxSurge ??= '25%';
  }
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  defaultPodTemplate(spec.template);
}

function validateDeployment(d: Obj): FieldError[] {
  const spec: Obj = d.spec ?? {};
  const errs = nonNegative(spec.replicas, 'spec.replicas');
  errs.push(...validateSelectorAndTemplate(spec, 'deployment'));
  const st: Obj = spec.strategy ?? {};
  if (st.type === 'Recreate') {
    if (st.rollingUpdate) errs.push(forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"));
  } else if (st.type === 'RollingUpdate') {
    if (!st.rollingUpdate) errs.push(required('spec.strategy.rollingUpdate', 'this should be defaulted and never be nil'));
    else errs.push(...validateRollingUpdate(st.rollingUpdate, 'spec.strategy.rollingUpdate'));
  } else {
    errs.push(notSupported('spec.strategy', st, ['Recreate', 'RollingUpdate']));
  }
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errs.push(invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

/** apps/v1 forbids changing the selector (the strategy's check, not ValidateDeploymentUpdate's). */
function selectorImmutable(obj: Obj, old: Obj): FieldError[] {
  const sel = obj.spec?.selector;
  if (semanticEqual(sel, old?.spec?.selector)) return [];
  return [invalid('spec.selector', sel ?? null, FIELD_IMMUTABLE, goLabelSelector(sel))];
}

export const deploymentRules: KindRules = {
  defaults: deploymentDefaults,
  validateCreate: validateDeployment,
  validateUpdate: (d, old) => [...validateDeployment(d), ...selectorImmutable(d, old)],
};

// ---- ReplicaSet ----

function validateReplicaSet(rs: Obj): FieldError[] {
  const spec: Obj = rs.spec ?? {};
  const errs = [...nonNegative(spec.replicas, 'spec.replicas'), ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds')];
  // Upstream's ReplicaSet check says "deployment" too.
  errs.push(...validateSelectorAndTemplate(spec, 'deployment'));
  return errs;
}

export const replicaSetRules: KindRules = {
  defaults(rs: Obj) {
    const spec = specOf(rs);
    spec.replicas ??= 1;
    defaultPodTemplate(spec.template);
  },
  validateCreate: validateReplicaSet,
  validateUpdate: (rs, old) => [...validateReplicaSet(rs), ...selectorImmutable(rs, old)],
};

// ---- StatefulSet ----

function statefulSetDefaults(ss: Obj): void {
  const spec = specOf(ss);
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us: Obj = spec.updateStrategy && typeof spec.updateStrategy === 'object' ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru: Obj = us.rollingUpdate && typeof us.rollingUpdate === 'object' ? us.rollingUpdate : (us.rollingUpdate = {});
    ru.partition ??= 0;
  }
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  defaultPodTemplate(spec.template);
  if (Array.isArray(spec.volumeClaimTemplates)) for (const t of spec.volumeClaimTemplates) if (t && typeof t === 'object') defaultPVC(t);
}

function validateStatefulSet(ss: Obj): FieldError[] {
  const spec: Obj = ss.spec ?? {};
  const errs: FieldError[] = [];
  switch (spec.podManagementPolicy ?? '') {
    case '':
      errs.push(required('spec.podManagementPolicy'));
      break;
    case 'OrderedReady':
    case 'Parallel':
      break;
    default:
      errs.push(invalid('spec.podManagementPolicy', spec.podManagementPolicy, "must be 'OrderedReady' or 'Parallel'"));
  }
  const us: Obj = spec.updateStrategy ?? {};
  switch (us.type ?? '') {
    case '':
      errs.push(required('spec.updateStrategy'));
      break;
    case 'OnDelete':
      if (us.rollingUpdate) errs.push(invalid('spec.updateStrategy.rollingUpdate', us.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
      break;
    case 'RollingUpdate':
      if (us.rollingUpdate) errs.push(...nonNegative(us.rollingUpdate.partition, 'spec.updateStrategy.rollingUpdate.partition'));
      break;
    default:
      errs.push(invalid('spec.updateStrategy', us, "must be 'RollingUpdate' or 'OnDelete'"));
  }
  errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...validateSelectorAndTemplate(spec, 'statefulset'));
  if (spec.template?.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
  }
  (Array.isArray(spec.volumeClaimTemplates) ? spec.volumeClaimTemplates : []).forEach((t: Obj, i: number) => {
    errs.push(...validatePVCSpec(t?.spec, `spec.volumeClaimTemplates[${i}].spec`));
  });
  return errs;
}

function validateStatefulSetUpdate(ss: Obj, old: Obj): FieldError[] {
  const errs = validateStatefulSet(ss);
  const strip = (s: Obj) => {
    const c = { ...(s ?? {}) };
    for (const f of ['replicas', 'template', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy']) delete c[f];
    return c;
  };
  if (!semanticEqual(strip(ss.spec), strip(old?.spec))) {
    errs.push(forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
  }
  return errs;
}

export const statefulSetRules: KindRules = {
  defaults: statefulSetDefaults,
  validateCreate: validateStatefulSet,
  validateUpdate: validateStatefulSetUpdate,
};

// ---- DaemonSet ----

function daemonSetDefaults(ds: Obj): void {
  const spec = specOf(ds);
  const us: Obj = spec.updateStrategy && typeof spec.updateStrategy === 'object' ? spec.updateStrategy : (spec.updateStrategy = {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru: Obj = us.rollingUpdate && typeof us.rollingUpdate === 'object' ? us.rollingUpdate : (us.rollingUpdate = {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
  defaultPodTemplate(spec.template);
}

function validateDaemonSet(ds: Obj): FieldError[] {
  const spec: Obj = ds.spec ?? {};
  const errs = validateLabelSelector(spec.selector, 'spec.selector');
  const labels = templateLabels(spec);
  if (selectorIsValid(spec.selector) && !(spec.selector && selectorIsEmpty(spec.selector)) && !selectorMatches(spec.selector, labels)) {
    errs.push(invalid('spec.template.metadata.labels', labels ?? null, '`selector` does not match template `labels`', goStringMap(labels)));
  }
  if (spec.selector && selectorIsEmpty(spec.selector)) errs.push(invalid('spec.selector', spec.selector, 'empty selector is invalid for daemonset', goLabelSelector(spec.selector)));
  errs.push(...validatePodTemplateSpec(spec.template, 'spec.template'));
  const rp = spec.template?.spec?.restartPolicy;
  if (rp !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', rp ?? '', ['Always']));
  if (spec.template?.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(invalid('spec.template.spec.activeDeadlineSeconds', spec.template.spec.activeDeadlineSeconds, 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...nonNegative(spec.templateGeneration, 'spec.templateGeneration'));
  const us: Obj = spec.updateStrategy ?? {};
  if (us.type === 'RollingUpdate') {
    if (!us.rollingUpdate) errs.push(required('spec.updateStrategy.rollingUpdate'));
    else {
      const p = 'spec.updateStrategy.rollingUpdate';
      errs.push(...validatePositiveIntOrPercent(us.rollingUpdate.maxUnavailable, `${p}.maxUnavailable`));
      errs.push(...validatePositiveIntOrPercent(us.rollingUpdate.maxSurge, `${p}.maxSurge`));
      if (intOrPercentValue(us.rollingUpdate.maxUnavailable) === 0 && intOrPercentValue(us.rollingUpdate.maxSurge) === 0) {
        errs.push(invalid(`${p}.maxUnavailable`, us.rollingUpdate.maxUnavailable, 'may not be 0 when `maxSurge` is 0', goIntOrString(us.rollingUpdate.maxUnavailable)));
      }
      errs.push(...notMoreThan100Percent(us.rollingUpdate.maxUnavailable, `${p}.maxUnavailable`));
    }
  } else if (us.type !== 'OnDelete') {
    errs.push(notSupported('spec.updateStrategy', us, ['RollingUpdate', 'OnDelete']));
  }
  errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

export const daemonSetRules: KindRules = {
  defaults: daemonSetDefaults,
  validateCreate: validateDaemonSet,
  validateUpdate: (ds, old) => [...validateDaemonSet(ds), ...selectorImmutable(ds, old)],
};
