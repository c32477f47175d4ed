import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { nameRuleFor, rulesFor } from '../kinds';

const pdb = rulesFor('policy', 'PodDisruptionBudget')!;
const budget = (spec: object, apiVersion = 'policy/v1'): any => ({ apiVersion, metadata: { name: 'web' }, spec });
const message = (spec: object) => invalidStatus('policy', 'PodDisruptionBudget', 'web', pdb.validateCreate!(budget(spec))).message;
const PREFIX = 'PodDisruptionBudget.policy "web" is invalid: ';
const selector = { matchLabels: { app: 'web' } };

describe('PodDisruptionBudget spec', () => {
  it('accepts integers, percentages up to 100% and any valid selector, including none', () => {
    for (const spec of [{ minAvailable: 0, selector }, { maxUnavailable: '100%', selector: {} }, { minAvailable: '0%' }, {}]) {
      expect(pdb.validateCreate!(budget(spec))).toEqual([]);
    }
  });

  it('refuses minAvailable and maxUnavailable together, printing the spec as Go does', () => {
    expect(message({ minAvailable: 1, maxUnavailable: 1, selector })).toBe(
      `${PREFIX}spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a1c0a0), Selector:(*v1.LabelSelector)(0xc000a1c0c0), MaxUnavailable:(*intstr.IntOrString)(0xc000a1c0e0)}: minAvailable and maxUnavailable cannot be both set`,
    );
    expect(message({ minAvailable: 1, maxUnavailable: 1 })).toContain('Selector:(*v1.LabelSelector)(nil)');
  });

  it('checks each int-or-string: non-negative, a percent string, at most 100%', () => {
    expect(message({ minAvailable: -1, selector })).toBe(`${PREFIX}spec.minAvailable: Invalid value: -1: must be greater than or equal to 0`);
    expect(message({ maxUnavailable: '101%', selector })).toBe(
      `${PREFIX}spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%`,
    );
    expect(message({ minAvailable: 'half', selector })).toBe(
      `${PREFIX}spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    );
  });

  it('validates the selector', () => {
    expect(message({ minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] } })).toBe(
      `${PREFIX}spec.selector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
    );
  });

  it('allows spec updates (mutable since 1.15) and validates them like a create', () => {
    const old = budget({ minAvailable: 1, selector });
    expect(pdb.validateUpdate!(budget({ minAvailable: 2, selector: { matchLabels: { app: 'db' } } }), old, '')).toEqual([]);
    expect(pdb.validateUpdate!(budget({ minAvailable: -2, selector }), old, '')).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.minAvailable', value: -2, detail: 'must be greater than or equal to 0' },
    ]);
  });

  it('names are path segments: the v1.23 PDB strategy checks no metadata of its own', () => {
    expect(nameRuleFor('policy', 'PodDisruptionBudget')).toBe('path-segment');
  });
});

describe('PodDisruptionBudget status writes', () => {
  const withStatus = (apiVersion: string, status: object) => ({ ...budget({ minAvailable: -1 }, apiVersion), status });
  it('check only the status: counts may not be negative in policy/v1', () => {
    const obj = withStatus('policy/v1', { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 0, expectedPods: -3 });
    expect(invalidStatus('policy', 'PodDisruptionBudget', 'web', pdb.validateUpdate!(obj, obj, 'status')).message).toBe(
      `${PREFIX}[status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0, status.expectedPods: Invalid value: -3: must be greater than or equal to 0]`,
    );
  });

  it('are not count-checked through policy/v1beta1', () => {
    const obj = withStatus('policy/v1beta1', { disruptionsAllowed: -1 });
    expect(pdb.validateUpdate!(obj, obj, 'status')).toEqual([]);
  });
});
