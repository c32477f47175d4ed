import { describe, expect, it } from 'vitest';
import { sameDeploymentStatus } from './deployment-status';

const condition = { type: 'Available', status: 'True', lastUpdateTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' };

describe('sameDeploymentStatus', () => {
  it('treats a zero count and an absent one alike', () => {
    expect(sameDeploymentStatus({ observedGeneration: 1, replicas: 0 }, { observedGeneration: 1, replicas: 0, readyReplicas: 0, availableReplicas: undefined })).toBe(true);
    expect(sameDeploymentStatus(undefined, { replicas: 0, unavailableReplicas: 0 })).toBe(true);
  });

  it('sees a changed count, a new member and a lost member', () => {
    expect(sameDeploymentStatus({ replicas: 3, readyReplicas: 2 }, { replicas: 3, readyReplicas: 3 })).toBe(false);
    expect(sameDeploymentStatus({ replicas: 3 }, { replicas: 3, collisionCount: 1 })).toBe(false);
    expect(sameDeploymentStatus({ replicas: 3, observedGeneration: 2 }, { replicas: 3 })).toBe(false);
    expect(sameDeploymentStatus({ replicas: 3, readyReplicas: 1 }, { replicas: 3 })).toBe(false);
  });

  it('ignores the order of the members and compares conditions in full', () => {
    expect(sameDeploymentStatus({ replicas: 2, conditions: [condition], observedGeneration: 1 }, { observedGeneration: 1, conditions: [{ ...condition }], replicas: 2 })).toBe(true);
    expect(sameDeploymentStatus({ conditions: [condition] }, { conditions: [{ ...condition, lastUpdateTime: '2026-01-01T00:00:01Z' }] })).toBe(false);
    expect(sameDeploymentStatus({ conditions: [condition] }, { conditions: [] })).toBe(false);
  });
});
