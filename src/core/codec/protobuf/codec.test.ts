import { describe, expect, it } from 'vitest';
import { decodeProtobufObject, encodeProtobufObject } from './index';

const roundTrip = (obj: Record<string, unknown>) => decodeProtobufObject(encodeProtobufObject(obj)).object;

describe('zero values: Go values dropped, Go pointers kept', () => {
  it('keeps explicit zero/false pointer fields and drops zero value fields', () => {
    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', generation: 0 },
      spec: { replicas: 0, minReadySeconds: 0, paused: false, selector: { matchLabels: { app: 'd' } }, template: { spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect(roundTrip(deployment)).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'd' },
      spec: { replicas: 0, selector: { matchLabels: { app: 'd' } }, template: { spec: { automountServiceAccountToken: false, containers: [{ name: 'c', image: 'nginx' }] } } },
    });
  });

  it('keeps the pointer fields the wire spec lists', () => {
    const job = roundTrip({ apiVersion: 'batch/v1', kind: 'Job', spec: { parallelism: 0, completions: 0, backoffLimit: 0, suspend: false, template: {} } });
    expect(job.spec).toEqual({ parallelism: 0, completions: 0, backoffLimit: 0, suspend: false });
    const cronJob = roundTrip({ apiVersion: 'batch/v1', kind: 'CronJob', spec: { schedule: '* * * * *', suspend: false } });
    expect(cronJob.spec).toEqual({ schedule: '* * * * *', suspend: false });
    const token = roundTrip({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 0 } });
    expect(token.spec).toEqual({ expirationSeconds: 0 });
    const hpa = roundTrip({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', spec: { minReplicas: 0, maxReplicas: 0 } });
    expect(hpa.spec).toEqual({ minReplicas: 0 });
    const sa = roundTrip({ apiVersion: 'v1', kind: 'ServiceAccount', automountServiceAccountToken: false });
    expect(sa.automountServiceAccountToken).toBe(false);
  });

  it('does not invent pointer messages that were absent (deletionTimestamp, securityContext)', () => {
    const pod = roundTrip({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } });
    expect(pod).toEqual({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } });
  });

  it('keeps present-but-empty pointer messages such as emptyDir: {}', () => {
    const pod = roundTrip({ apiVersion: 'v1', kind: 'Pod', spec: { volumes: [{ name: 'v', emptyDir: {} }], containers: [] } });
    expect(pod.spec).toEqual({ volumes: [{ name: 'v', emptyDir: {} }] });
  });
});

describe('embedded Go structs (json inline)', () => {
  it('flattens Volume.volumeSource, Probe.handler and LocalObjectReference', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      spec: {
        volumes: [{ name: 'cfg', configMap: { name: 'settings', defaultMode: 420 } }],
        containers: [
          {
            name: 'c',
            readinessProbe: { httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' }, periodSeconds: 5 },
            env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
          },
        ],
      },
    };
    expect(roundTrip(pod)).toEqual({ kind: 'Pod', apiVersion: 'v1', spec: pod.spec });
  });
});

describe('custom-marshalled types', () => {
  it('converts Time, MicroTime, Quantity, IntOrString, bytes, RawExtension and FieldsV1', () => {
    const managedFields = [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: '2024-05-06T07:08:09Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    const secret = roundTrip({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', creationTimestamp: '2024-05-06T07:08:09Z', managedFields }, data: { bin: 'AAEC/w==' } });
    expect(secret).toEqual({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's', creationTimestamp: '2024-05-06T07:08:09Z', managedFields }, data: { bin: 'AAEC/w==' } });

    const lease = roundTrip({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', spec: { holderIdentity: 'me', renewTime: '2024-05-06T07:08:09.123456Z', leaseDurationSeconds: 15 } });
    expect(lease.spec).toEqual({ holderIdentity: 'me', renewTime: '2024-05-06T07:08:09.123456Z', leaseDurationSeconds: 15 });

    const quota = roundTrip({ apiVersion: 'v1', kind: 'ResourceQuota', spec: { hard: { cpu: '500m', 'requests.memory': '1Gi' } } });
    expect(quota.spec).toEqual({ hard: { cpu: '500m', 'requests.memory': '1Gi' } });

    const svc = roundTrip({ apiVersion: 'v1', kind: 'Service', spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] } });
    expect(svc.spec).toEqual({ ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] });

    const pdb = roundTrip({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', spec: { maxUnavailable: 0 } });
    expect(pdb.spec).toEqual({ maxUnavailable: 0 });

    const revision = roundTrip({ apiVersion: 'apps/v1', kind: 'ControllerRevision', data: { spec: { template: { x: [1, 'two', null] } } }, revision: 3 });
    expect(revision).toEqual({ kind: 'ControllerRevision', apiVersion: 'apps/v1', data: { spec: { template: { x: [1, 'two', null] } } }, revision: 3 });
  });

  it('writes Time as {seconds, nanos} and the zero time as an empty message', () => {
    const bytes = encodeProtobufObject({ apiVersion: 'v1', kind: 'Namespace', metadata: { creationTimestamp: '1970-01-01T00:01:40Z' } });
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    expect(hex).toContain('4204086410' + '00'); // 8: Time{1: 100, 2: 0}
  });

  it('handles negative integers (ten-byte varints) and large int64 values', () => {
    const event = roundTrip({ apiVersion: 'v1', kind: 'Event', count: -5, metadata: { generation: 9007199254740991 } });
    expect(event.count).toBe(-5);
    expect((event.metadata as Record<string, unknown>).generation).toBe(9007199254740991);
    const pc = roundTrip({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', value: -2147483648 });
    expect(pc.value).toBe(-2147483648);
  });

  it('round-trips non-ASCII strings', () => {
    const cm = roundTrip({ apiVersion: 'v1', kind: 'ConfigMap', data: { greeting: 'héllo wörld ✓ 🚀 ' + 'ü'.repeat(100) } });
    expect(cm.data).toEqual({ greeting: 'héllo wörld ✓ 🚀 ' + 'ü'.repeat(100) });
  });

  it('decodes keys in Go struct order, not field-number order', () => {
    const pod = roundTrip({ apiVersion: 'v1', kind: 'Pod', spec: { restartPolicy: 'Always', containers: [{ name: 'c' }], initContainers: [{ name: 'i' }], volumes: [{ name: 'v', emptyDir: {} }] } });
    expect(Object.keys(pod.spec as object)).toEqual(['volumes', 'initContainers', 'containers', 'restartPolicy']);
    expect(Object.keys(pod)).toEqual(['kind', 'apiVersion', 'spec']);
  });
});
