// The converting read path cuts managedFields out of stored text and splices it back: its output
// must be byte for byte what parsing, converting and re-serialising the whole object gives.
import { describe, expect, it } from 'vitest';
import { convertStoredText } from './conversion';
import { toStoredText, type Obj } from './objects';
import { convertOwned } from '../versions/index';

const MANAGED = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'autoscaling/v2', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:metrics': {} } } }];
const METRICS_ANNOTATION = '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]';

/** An HPA as stored (autoscaling/v1): a label named like the field, a round-trip annotation, status. */
const STORED_HPA = JSON.stringify({
  metadata: {
    name: 'web',
    creationTimestamp: '2021-01-01T00:00:00Z',
    labels: { managedFields: 'x' },
    annotations: { team: 'a', 'autoscaling.alpha.kubernetes.io/metrics': METRICS_ANNOTATION },
    managedFields: MANAGED,
  },
  spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 60 },
  status: { currentReplicas: 1, desiredReplicas: 1 },
});

const WITHOUT_MANAGED_FIELDS = STORED_HPA.replace(`,"managedFields":${JSON.stringify(MANAGED)}`, '');

/** The straightforward path the text path replaces. */
function parseAll(kind: string, stored: string, storage: string, served: string): string {
  return toStoredText(convertOwned({ kind, apiVersion: storage, ...(JSON.parse(stored) as Obj) }, storage, served) as Obj);
}

describe('convertStoredText', () => {
  it('writes the converted HPA with managedFields unchanged, in place', () => {
    expect(convertStoredText('HorizontalPodAutoscaler', STORED_HPA, 'autoscaling/v1', 'autoscaling/v2')).toBe(
      JSON.stringify({
        metadata: { name: 'web', creationTimestamp: '2021-01-01T00:00:00Z', labels: { managedFields: 'x' }, annotations: { team: 'a' }, managedFields: MANAGED },
        spec: {
          scaleTargetRef: { kind: 'Deployment', name: 'web' },
          maxReplicas: 3,
          metrics: [
            { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
            { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          ],
        },
        status: { currentReplicas: 1, desiredReplicas: 1 },
      }),
    );
  });

  it('matches a full parse and re-serialisation for every served version and kind', () => {
    expect(WITHOUT_MANAGED_FIELDS).not.toContain('"managedFields":[');
    const cases: Array<[kind: string, stored: string, storage: string, served: string[]]> = [
      ['HorizontalPodAutoscaler', STORED_HPA, 'autoscaling/v1', ['autoscaling/v2', 'autoscaling/v2beta2', 'autoscaling/v2beta1']],
      ['HorizontalPodAutoscaler', WITHOUT_MANAGED_FIELDS, 'autoscaling/v1', ['autoscaling/v2', 'autoscaling/v2beta1']],
      [
        'EndpointSlice',
        JSON.stringify({ metadata: { name: 's', managedFields: MANAGED }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], nodeName: 'n1', zone: 'z1' }] }),
        'discovery.k8s.io/v1',
        ['discovery.k8s.io/v1beta1'],
      ],
      [
        'Event',
        JSON.stringify({ metadata: { name: 'e', annotations: { a: '"managedFields":-7.25' }, managedFields: MANAGED, zzz: 1 }, involvedObject: { name: 'p' }, message: 'm' }),
        'v1',
        ['events.k8s.io/v1', 'events.k8s.io/v1beta1'],
      ],
    ];
    for (const [kind, stored, storage, served] of cases) {
      for (const version of served) {
        const text = convertStoredText(kind, stored, storage, version);
        expect(text, `${kind} at ${version}`).toBe(parseAll(kind, stored, storage, version));
        if (stored.includes('"managedFields":[')) expect(text).toContain(`"managedFields":${JSON.stringify(MANAGED)}`);
      }
    }
  });
});
