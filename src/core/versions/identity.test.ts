import { describe, expect, it } from 'vitest';
import { convert } from './index';
import { roundTrip } from './roundtrip.test-helper';

describe('kinds whose versions share every field in 1.23', () => {
  const cases: Array<[string, string, string, Record<string, unknown>]> = [
    ['CronJob', 'batch/v1beta1', 'batch/v1', {
      spec: { schedule: '*/5 * * * *', concurrencyPolicy: 'Forbid', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, startingDeadlineSeconds: 20,
        jobTemplate: { metadata: { labels: { a: 'b' } }, spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
      status: { active: [{ kind: 'Job', name: 'j1' }], lastScheduleTime: '2021-01-01T00:00:00Z', lastSuccessfulTime: '2021-01-01T00:00:00Z' },
    }],
    ['RuntimeClass', 'node.k8s.io/v1beta1', 'node.k8s.io/v1', { handler: 'runc', overhead: { podFixed: { cpu: '10m' } }, scheduling: { nodeSelector: { a: 'b' }, tolerations: [{ key: 'k', operator: 'Exists' }] } }],
    ['FlowSchema', 'flowcontrol.apiserver.k8s.io/v1beta2', 'flowcontrol.apiserver.k8s.io/v1beta1', {
      spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 9900, distinguisherMethod: { type: 'ByUser' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:unauthenticated' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }] },
      status: { conditions: [{ type: 'Dangling', status: 'False' }] },
    }],
    ['PriorityLevelConfiguration', 'flowcontrol.apiserver.k8s.io/v1beta2', 'flowcontrol.apiserver.k8s.io/v1beta1', {
      spec: { type: 'Limited', limited: { assuredConcurrencyShares: 20, limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } } } },
    }],
  ];

  for (const [kind, served, storage, body] of cases) {
    it(`${kind}: ${served} <-> ${storage} changes only apiVersion`, () => {
      const obj = { apiVersion: served, kind, metadata: { name: 'x' }, ...body };
      expect(convert(obj, served, storage)).toEqual({ ...obj, apiVersion: storage });
      expect(roundTrip(obj, served, storage, served)).toEqual(obj);
    });
  }

  it('CSIStorageCapacity converts only to its single version', () => {
    const obj = { apiVersion: 'storage.k8s.io/v1beta1', kind: 'CSIStorageCapacity', metadata: { name: 'c' }, storageClassName: 'fast', capacity: '10Gi', maximumVolumeSize: '1Gi', nodeTopology: { matchLabels: { z: '1' } } };
    expect(convert(obj, 'storage.k8s.io/v1beta1', 'storage.k8s.io/v1beta1')).toEqual(obj);
    expect(() => convert(obj, 'storage.k8s.io/v1beta1', 'storage.k8s.io/v1')).toThrow(/not served/);
  });
});
