import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const rules = rulesFor('', 'Pod')!;

function pod(spec: Record<string, unknown>): any {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default' }, spec, status: { phase: 'Pending' } };
}

function check(spec: Record<string, unknown>) {
  const p = pod(spec);
  rules.defaults!(p);
  return rules.validateCreate!(p);
}

describe('Pod defaults', () => {
  it('fills what a v1.23 cluster fills', () => {
    const p = pod({ containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] });
    rules.defaults!(p);
    expect(p.spec).toEqual({
      containers: [
        {
          name: 'c',
          image: 'nginx',
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          imagePullPolicy: 'Always',
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          resources: {},
        },
      ],
      enableServiceLinks: true,
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
      schedulerName: 'default-scheduler',
      serviceAccountName: 'default',
      serviceAccount: 'default',
      priority: 0,
      preemptionPolicy: 'PreemptLowerPriority',
    });
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['registry:5000/app', 'Always'],
    ['app@sha256:abc', 'IfNotPresent'],
  ])('imagePullPolicy for %s is %s', (image, policy) => {
    const p = pod({ containers: [{ name: 'c', image }] });
    rules.defaults!(p);
    expect(p.spec.containers[0].imagePullPolicy).toBe(policy);
  });

  it('copies limits to requests and computes the QoS class', () => {
    const g = pod({ containers: [{ name: 'c', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }] });
    rules.defaults!(g);
    expect(g.spec.containers[0].resources.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(g.status.qosClass).toBe('Guaranteed');
    const b = pod({ containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] });
    rules.defaults!(b);
    expect(b.status.qosClass).toBe('Burstable');
  });
});

describe('Pod validation', () => {
  it('accepts a valid pod', () => {
    expect(check({ containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, name: 'http' }] }], volumes: [{ name: 'v', emptyDir: {} }] })).toEqual([]);
  });

  it.each([
    ['no containers', {}, [{ type: 'FieldValueRequired', field: 'spec.containers' }]],
    ['missing image', { containers: [{ name: 'c' }] }, [{ type: 'FieldValueRequired', field: 'spec.containers[0].image' }]],
    [
      'duplicate container names',
      { containers: [{ name: 'c', image: 'x' }, { name: 'c', image: 'x' }] },
      [{ type: 'FieldValueDuplicate', field: 'spec.containers[1].name', value: 'c' }],
    ],
    [
      'container port out of range',
      { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 70000 }] }] },
      [{ type: 'FieldValueInvalid', field: 'spec.containers[0].ports[0].containerPort', value: 70000, detail: 'must be between 1 and 65535, inclusive' }],
    ],
    [
      'bad protocol',
      { containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80, protocol: 'HTTP' }] }] },
      [{ type: 'FieldValueNotSupported', field: 'spec.containers[0].ports[0].protocol', value: 'HTTP', supported: ['SCTP', 'TCP', 'UDP'] }],
    ],
    [
      'bad restartPolicy',
      { containers: [{ name: 'c', image: 'x' }], restartPolicy: 'Sometimes' },
      [{ type: 'FieldValueNotSupported', field: 'spec.restartPolicy', value: 'Sometimes', supported: ['Always', 'OnFailure', 'Never'] }],
    ],
    [
      'duplicate volumes',
      { containers: [{ name: 'c', image: 'x' }], volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }] },
      [{ type: 'FieldValueDuplicate', field: 'spec.volumes[1].name', value: 'v' }],
    ],
    [
      'mount of unknown volume',
      { containers: [{ name: 'c', image: 'x', volumeMounts: [{ name: 'nope', mountPath: '/x' }] }] },
      [{ type: 'FieldValueNotFound', field: 'spec.containers[0].volumeMounts[0].name', value: 'nope' }],
    ],
    [
      'requests above limits',
      { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] },
      [{ type: 'FieldValueInvalid', field: 'spec.containers[0].resources.requests', value: '2', detail: 'must be less than or equal to cpu limit' }],
    ],
  ])('%s', (_name, spec, want) => {
    expect(check(spec as Record<string, unknown>)).toEqual(want);
  });

  it('rejects an invalid container name with the DNS-1123 label message', () => {
    const errs = check({ containers: [{ name: 'Web_1', image: 'x' }] });
    expect(invalidStatus('', 'Pod', 'p', errs).message).toBe(
      `Pod "p" is invalid: spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    );
  });

  it('reports unparseable quantities', () => {
    const errs = check({ containers: [{ name: 'c', image: 'x', resources: { limits: { memory: '1GB' } } }] });
    expect(errs[0].field).toBe('spec.containers[0].resources.limits[memory]');
    expect(errs[0].detail).toMatch(/^quantities must match the regular expression/);
  });

  it('allows only image changes on update', () => {
    const old = pod({ containers: [{ name: 'c', image: 'x:1' }] });
    rules.defaults!(old);
    const next = JSON.parse(JSON.stringify(old));
    next.spec.containers[0].image = 'x:2';
    expect(rules.validateUpdate!(next, old)).toEqual([]);
    next.spec.restartPolicy = 'Never';
    expect(rules.validateUpdate!(next, old)).toEqual([{ type: 'FieldValueForbidden', field: 'spec', detail: expect.stringMatching(/^pod updates may not change fields other than `spec.containers\[\*\].image`/) }]);
  });
});
