import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const rc = rulesFor('', 'ReplicationController')!;
const pt = rulesFor('', 'PodTemplate')!;

const containers = () => [{ name: 'c', image: 'nginx:1.25' }];
const defaultedSpec = {
  containers: [{ name: 'c', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }],
  dnsPolicy: 'ClusterFirst',
  restartPolicy: 'Always',
  securityContext: {},
  terminationGracePeriodSeconds: 30,
  schedulerName: 'default-scheduler',
};

function controller(spec: Record<string, unknown>): any {
  return { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'web', namespace: 'default' }, spec };
}

const message = (obj: any, errs: ReturnType<NonNullable<typeof rc.validateCreate>>) => invalidStatus('', 'ReplicationController', obj.metadata.name, errs).message;

describe('ReplicationController defaults', () => {
  it('takes the selector and labels from the template, replicas 1, pod spec defaults, status replicas 0 (golden)', () => {
    const obj = controller({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: containers() } } });
    rc.defaults!(obj);
    expect(obj).toEqual({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
      spec: { template: { metadata: { labels: { app: 'web' } }, spec: defaultedSpec }, selector: { app: 'web' }, replicas: 1 },
      status: { replicas: 0 },
    });
    expect(rc.validateCreate!(obj)).toEqual([]);
    // The selector is a copy: changing the template later does not change it.
    obj.spec.template.metadata.labels.app = 'other';
    expect(obj.spec.selector).toEqual({ app: 'web' });
  });

  it('keeps a selector, labels and replicas that are set', () => {
    const obj = controller({ replicas: 0, selector: { app: 'web' }, template: { metadata: { labels: { app: 'web', tier: 'fe' } }, spec: { containers: containers() } } });
    obj.metadata.labels = { team: 'a' };
    rc.defaults!(obj);
    expect(obj.metadata.labels).toEqual({ team: 'a' });
    expect(obj.spec.selector).toEqual({ app: 'web' });
    expect(obj.spec.replicas).toBe(0);
  });

  it('defaults a template sent without a pod spec as an empty pod spec', () => {
    const obj = controller({ template: { metadata: { labels: { app: 'web' } } } });
    rc.defaults!(obj);
    expect(obj.spec.template.spec).toEqual({ dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', securityContext: {}, terminationGracePeriodSeconds: 30, schedulerName: 'default-scheduler' });
    expect(message(obj, rc.validateCreate!(obj))).toBe('ReplicationController "web" is invalid: spec.template.spec.containers: Required value');
  });
});

describe('ReplicationController validation', () => {
  it('requires a selector and a template', () => {
    const obj = controller({});
    rc.defaults!(obj);
    expect(message(obj, rc.validateCreate!(obj))).toBe('ReplicationController "web" is invalid: [spec.selector: Required value, spec.template: Required value]');
  });

  it('requires the selector to match the template labels', () => {
    const obj = controller({ selector: { app: 'other' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: containers() } } });
    rc.defaults!(obj);
    expect(message(obj, rc.validateCreate!(obj))).toBe(
      'ReplicationController "web" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    );
  });

  it('rejects negative counts, other restart policies and activeDeadlineSeconds', () => {
    const obj = controller({
      replicas: -1,
      minReadySeconds: -2,
      selector: { app: 'web' },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: containers(), restartPolicy: 'OnFailure', activeDeadlineSeconds: 30 } },
    });
    rc.defaults!(obj);
    expect(message(obj, rc.validateCreate!(obj))).toBe(
      'ReplicationController "web" is invalid: [spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0, spec.replicas: Invalid value: -1: must be greater than or equal to 0, spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always", spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicationController is not Supported]',
    );
  });

  it('requires read-only GCE disks when there is more than one replica', () => {
    const volumes = [{ name: 'd', gcePersistentDisk: { pdName: 'disk' } }];
    const obj = controller({ replicas: 2, template: { metadata: { labels: { app: 'web' } }, spec: { containers: containers(), volumes } } });
    rc.defaults!(obj);
    expect(rc.validateCreate!(obj)).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec.template.spec.volumes[0].gcePersistentDisk.readOnly',
        value: false,
        detail: 'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
      },
    ]);
    obj.spec.replicas = 1;
    expect(rc.validateCreate!(obj)).toEqual([]);
  });

  it('updates may change the selector; a status write checks the status only', () => {
    const old = controller({ template: { metadata: { labels: { app: 'web', v: '1' } }, spec: { containers: containers() } } });
    rc.defaults!(old);
    const next = JSON.parse(JSON.stringify(old));
    next.spec.selector = { v: '1' };
    expect(rc.validateUpdate!(next, old, '')).toEqual([]);
    const status = JSON.parse(JSON.stringify(old));
    status.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, observedGeneration: -1 };
    expect(message(status, rc.validateUpdate!(status, old, 'status'))).toBe(
      'ReplicationController "web" is invalid: [status.observedGeneration: Invalid value: -1: must be greater than or equal to 0, status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas]',
    );
  });
});

describe('PodTemplate', () => {
  it('defaults the template pod spec (golden) and accepts it', () => {
    const obj: any = { metadata: { name: 'p', namespace: 'default' }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: containers(), restartPolicy: 'Never' } } };
    pt.defaults!(obj);
    expect(obj.template).toEqual({ metadata: { labels: { a: 'b' } }, spec: { ...defaultedSpec, restartPolicy: 'Never' } });
    expect(pt.validateCreate!(obj)).toEqual([]);
  });

  it('a missing template is an empty pod template, reported at template.spec', () => {
    const obj: any = { metadata: { name: 'p', namespace: 'default' } };
    pt.defaults!(obj);
    expect(invalidStatus('', 'PodTemplate', 'p', pt.validateCreate!(obj)).message).toBe('PodTemplate "p" is invalid: template.spec.containers: Required value');
  });

  it('validates template labels and the pod spec on update too', () => {
    const obj: any = { metadata: { name: 'p', namespace: 'default' }, template: { metadata: { labels: { 'a b': 'x' } }, spec: { containers: [{ name: 'C', image: 'i' }] } } };
    pt.defaults!(obj);
    expect(pt.validateUpdate!(obj, obj, '').map((e) => e.field)).toEqual(['template.labels', 'template.spec.containers[0].name']);
  });
});
