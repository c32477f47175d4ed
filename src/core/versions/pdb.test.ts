import { describe, expect, it } from 'vitest';
import { convert } from './index';
import { PDB_V1BETA1_LABEL } from './pdb';
import { roundTrip } from './roundtrip.test-helper';

const pdb = (apiVersion: string, selector?: object) => ({
  apiVersion,
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: { minAvailable: 2, ...(selector ? { selector } : {}), maxUnavailable: '10%' },
  status: {
    observedGeneration: 3,
    disruptedPods: { 'web-1': '2021-01-01T00:00:00Z' },
    disruptionsAllowed: 1,
    currentHealthy: 3,
    desiredHealthy: 2,
    expectedPods: 3,
    conditions: [{ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods', message: '', lastTransitionTime: '2021-01-01T00:00:00Z', observedGeneration: 3 }],
  },
});

const spec = (o: object) => (o as { spec: { selector?: unknown } }).spec;

describe('PodDisruptionBudget policy/v1beta1 <-> v1', () => {
  const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] };

  it('round-trips fully populated objects both ways', () => {
    expect(roundTrip(pdb('policy/v1beta1', selector), 'policy/v1beta1', 'policy/v1', 'policy/v1beta1')).toEqual(pdb('policy/v1beta1', selector));
    expect(roundTrip(pdb('policy/v1', selector), 'policy/v1', 'policy/v1', 'policy/v1beta1')).toEqual(pdb('policy/v1', selector));
  });

  it('stores a v1beta1 empty selector (selects nothing) as an Exists requirement on the reserved label', () => {
    const stored = convert(pdb('policy/v1beta1', {}), 'policy/v1beta1', 'policy/v1');
    expect(spec(stored).selector).toEqual({ matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'Exists' }] });
    expect(spec(convert(stored, 'policy/v1', 'policy/v1beta1')).selector).toEqual({});
  });

  it('shows a v1 empty selector (selects everything) in v1beta1 as DoesNotExist on the reserved label', () => {
    const beta = convert(pdb('policy/v1', {}), 'policy/v1', 'policy/v1beta1');
    expect(spec(beta).selector).toEqual({ matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'DoesNotExist' }] });
    expect(spec(convert(beta, 'policy/v1beta1', 'policy/v1')).selector).toEqual({});
  });

  it('strips the reserved label when mixed with user requirements, and leaves a missing selector missing', () => {
    const mixed = { matchLabels: { app: 'web' }, matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'Exists' }] };
    expect(spec(convert(pdb('policy/v1', mixed), 'policy/v1', 'policy/v1')).selector).toEqual({ matchLabels: { app: 'web' } });
    expect(spec(convert(pdb('policy/v1beta1'), 'policy/v1beta1', 'policy/v1')).selector).toBeUndefined();
  });
});
