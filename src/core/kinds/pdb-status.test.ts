import { describe, expect, it } from 'vitest';
import { computePdbStatus, scaledValue } from './pdb-status';

const NOW = Date.parse('2024-01-01T00:10:00Z');
const pod = (name: string, ready: boolean, extra: object = {}) => ({
  metadata: { name, labels: { app: 'web' }, ...extra },
  status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});
const budget = (spec: object, status?: object) => ({ metadata: { name: 'web', generation: 2 }, spec: { selector: { matchLabels: { app: 'web' } }, ...spec }, status });

describe('scaledValue', () => {
  it('takes integers as they are and rounds percentages up', () => {
    expect(scaledValue(2, 10)).toBe(2);
    expect(scaledValue('50%', 3)).toBe(2);
    expect(scaledValue('10%', 1)).toBe(1);
    expect(scaledValue('x%', 3)).toBeUndefined();
  });
});

describe('computePdbStatus', () => {
  it('counts ready, selected pods against minAvailable', () => {
    const s = computePdbStatus(budget({ minAvailable: 2 }), [pod('a', true), pod('b', true), pod('c', false), { metadata: { name: 'x', labels: { app: 'db' } } }], NOW);
    expect(s).toEqual({
      observedGeneration: 2,
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 3,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 2, lastTransitionTime: '2024-01-01T00:10:00Z', reason: 'InsufficientPods', message: '' }],
    });
  });

  it('derives desiredHealthy from maxUnavailable (percent rounded up)', () => {
    const s = computePdbStatus(budget({ maxUnavailable: '25%' }), [pod('a', true), pod('b', true), pod('c', true), pod('d', true), pod('e', true)], NOW);
    expect(s).toMatchObject({ desiredHealthy: 3, currentHealthy: 5, disruptionsAllowed: 2, expectedPods: 5 });
  });

  it('keeps fresh disruptedPods of live pods out of the healthy count, and drops stale or gone ones', () => {
    const disruptedPods = { a: '2024-01-01T00:09:30Z', b: '2024-01-01T00:01:00Z', gone: '2024-01-01T00:09:59Z' };
    const s = computePdbStatus(budget({ minAvailable: 1 }, { disruptedPods }), [pod('a', true), pod('b', true), pod('c', true, { deletionTimestamp: '2024-01-01T00:09:00Z' })], NOW);
    expect(s.disruptedPods).toEqual({ a: '2024-01-01T00:09:30Z' });
    expect(s).toMatchObject({ currentHealthy: 1, expectedPods: 3, disruptionsAllowed: 0 });
  });

  it('keeps lastTransitionTime while the condition holds', () => {
    const prev = { conditions: [{ type: 'DisruptionAllowed', status: 'True', lastTransitionTime: '2023-12-31T00:00:00Z' }] };
    expect(computePdbStatus(budget({ minAvailable: 0 }, prev), [pod('a', true)], NOW).conditions[0].lastTransitionTime).toBe('2023-12-31T00:00:00Z');
  });
});
