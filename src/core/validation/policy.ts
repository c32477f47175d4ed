// policy/v1 and policy/v1beta1 PodDisruptionBudget validation (v1.23: pkg/apis/policy/validation
// ValidatePodDisruptionBudgetSpec and ValidatePodDisruptionBudgetStatusUpdate; the registry
// strategy in pkg/registry/policy/poddisruptionbudget). Neither version has defaults; v1beta1's
// "empty selector selects nothing" is a conversion (src/core/versions/pdb.ts), not a default.
// The spec is mutable since 1.15: an update is validated like a create. A status write is
// checked on its status only, so a budget stored before these checks keeps getting status.
import { type FieldError, IS_NEGATIVE, invalid, nonNegative } from './errors';
import { goIntOrString } from './gofmt';
import type { KindRules } from './kind-rules';
import { validateLabelSelector } from './meta';
import { isValidPercent } from './names';
import { isObj, isSet, type Obj } from './values';



/**
 * The spec as field.Invalid prints it (%#v of the internal struct, in its v1.23 field order).
 * Go prints the pointers' addresses, which differ on every request; these are stand-ins of the
 * same shape.
 */
function goSpec(spec: Obj): string {
  const ptr = (type: string, v: unknown, addr: string) => `(*${type})(${isSet(v) ? addr : 'nil'})`;
  return (
    `policy.PodDisruptionBudgetSpec{MinAvailable:${ptr('intstr.IntOrString', spec.minAvailable, '0xc000a1c0a0')}, ` +
    `Selector:${ptr('v1.LabelSelector', spec.selector, '0xc000a1c0c0')}, ` +
    `MaxUnavailable:${ptr('intstr.IntOrString', spec.maxUnavailable, '0xc000a1c0e0')}}`
  );
}

/** apps ValidatePositiveIntOrPercent + IsNotMoreThan100Percent on one int-or-string field. */
function validateIntOrPercent(v: unknown, field: string): FieldError[] {
  if (typeof v === 'number') return v < 0 ? [invalid(field, v, IS_NEGATIVE)] : [];
  const s = String(v);
  const errs = isValidPercent(s).map((m) => invalid(field, s, m, goIntOrString(s)));
  if (errs.length === 0 && Number(s.slice(0, -1)) > 100) errs.push(invalid(field, s, 'must not be greater than 100%', goIntOrString(s)));
  return errs;
}

function validateSpec(pdb: Obj): FieldError[] {
  const spec: Obj = isObj(pdb.spec) ? pdb.spec : {};
  const errs: FieldError[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) {
    errs.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set', goSpec(spec)));
  }
  if (isSet(spec.minAvailable)) errs.push(...validateIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
  if (isSet(spec.maxUnavailable)) errs.push(...validateIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  return errs;
}

/**
 * ValidatePodDisruptionBudgetStatusUpdate: the counts may not be negative, checked for policy/v1
 * writes only (v1beta1 was not given new checks retroactively). Condition validation
 * (metav1 ValidateConditions) is not modelled.
 */
function validateStatus(pdb: Obj): FieldError[] {
  if (pdb.apiVersion === 'policy/v1beta1') return [];
  const status: Obj = isObj(pdb.status) ? pdb.status : {};
  return ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'].flatMap((f) => nonNegative(status[f], `status.${f}`));
}

export const podDisruptionBudgetRules: KindRules = {
  validateCreate: validateSpec,
  validateUpdate: (obj, _old, subresource) => (subresource === 'status' ? validateStatus(obj) : validateSpec(obj)),
};
