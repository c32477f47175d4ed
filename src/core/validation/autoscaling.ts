// HorizontalPodAutoscaler defaults and spec validation (autoscaling v1, v2, v2beta1, v2beta2;
// v1.23). Validation runs on the internal form in kube, so its paths are the same for every
// version; metric validation is not modelled.
import { type FieldError, invalid, required } from './errors';
import type { KindRules } from './kind-rules';
import { isValidPathSegmentName } from './names';
import { isObj, type Obj } from './values';



/** The default scaling rules (v2 and v2beta2 GenerateHPAScaleUpRules / ScaleDownRules): only unset parts are filled. */
function defaultRules(rules: unknown, window: number, policies: Obj[]): Obj {
  const r: Obj = isObj(rules) ? rules : {};
  if (r.stabilizationWindowSeconds === undefined || r.stabilizationWindowSeconds === null) r.stabilizationWindowSeconds = window;
  if (!r.selectPolicy) r.selectPolicy = 'Max';
  if (!Array.isArray(r.policies) || r.policies.length === 0) r.policies = policies;
  return r;
}

function defaults(hpa: Obj): void {
  const spec: Obj = isObj(hpa.spec) ? hpa.spec : (hpa.spec = {});
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  const version = String(hpa.apiVersion ?? '');
  if (version !== 'autoscaling/v2' && version !== 'autoscaling/v2beta2') return;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }];
  }
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = defaultRules(spec.behavior.scaleUp, 0, [
      { type: 'Pods', value: 4, periodSeconds: 15 },
      { type: 'Percent', value: 100, periodSeconds: 15 },
    ]);
    spec.behavior.scaleDown = defaultRules(spec.behavior.scaleDown, 300, [{ type: 'Percent', value: 100, periodSeconds: 15 }]);
  }
}

function validateReference(ref: unknown, path: string): FieldError[] {
  const r: Obj = isObj(ref) ? ref : {};
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    if (!r[f]) errs.push(required(`${path}.${f}`));
    else for (const m of isValidPathSegmentName(String(r[f]))) errs.push(invalid(`${path}.${f}`, r[f], m));
  }
  return errs;
}

function validate(hpa: Obj): FieldError[] {
  const spec: Obj = isObj(hpa.spec) ? hpa.spec : {};
  const errs: FieldError[] = [];
  const min = spec.minReplicas;
  const max = Number(spec.maxReplicas ?? 0);
  // Scale to zero needs the HPAScaleToZero feature gate (alpha, off in v1.23).
  if (typeof min === 'number' && min < 1) errs.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
  if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (typeof min === 'number' && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateReference(spec.scaleTargetRef, 'spec.scaleTargetRef'));
  return errs;
}

export const horizontalPodAutoscalerRules: KindRules = { defaults, validateCreate: validate, validateUpdate: validate };
