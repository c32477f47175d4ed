import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const deploy = rulesFor('apps', 'Deployment')!;

function deployment(spec: Record<string, unknown>): any {
  return { metadata: { name: 'd', namespace: 'default' }, spec };
}

const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };

describe('Deployment', () => {
  it('defaults like apps/v1 (golden)', () => {
    const d = deployment({ selector: { matchLabels: { app: 'x' } }, template: JSON.parse(JSON.stringify(template)) });
    deploy.defaults!(d);
    expect(d.spec).toEqual({
      selector: { matchLabels: { app: 'x' } },
      template: {
        metadata: { labels: { app: 'x' } },
        spec: {
          containers: [
            { name: 'c', image: 'nginx:1.25', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          schedulerName: 'default-scheduler',
        },
      },
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(deploy.validateCreate!(d)).toEqual([]);
  });

  it('requires the selector to match the template labels', () => {
    const d = deployment({ selector: { matchLabels: { app: 'y' } }, template: JSON.parse(JSON.stringify(template)) });
    deploy.defaults!(d);
    const errs = deploy.validateCreate!(d);
    expect(invalidStatus('apps', 'Deployment', 'd', errs).message).toBe(
      'Deployment.apps "d" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`',
    );
  });

  it('requires a selector', () => {
    const d = deployment({ template: JSON.parse(JSON.stringify(template)) });
    deploy.defaults!(d);
    expect(deploy.validateCreate!(d).map((e) => e.field)).toEqual(['spec.selector', 'spec.template.metadata.labels']);
  });

  it('rejects negative replicas and non-Always restart policies', () => {
    const t = JSON.parse(JSON.stringify(template));
    t.spec.restartPolicy = 'Never';
    const d = deployment({ replicas: -1, selector: { matchLabels: { app: 'x' } }, template: t });
    deploy.defaults!(d);
    expect(deploy.validateCreate!(d)).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.replicas', value: -1, detail: 'must be greater than or equal to 0' },
      { type: 'FieldValueNotSupported', field: 'spec.template.spec.restartPolicy', value: 'Never', supported: ['Always'] },
    ]);
  });

  it('validates the template as a pod spec under spec.template.spec', () => {
    const t = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c' }] } };
    const d = deployment({ selector: { matchLabels: { app: 'x' } }, template: t });
    deploy.defaults!(d);
    expect(deploy.validateCreate!(d)).toEqual([{ type: 'FieldValueRequired', field: 'spec.template.spec.containers[0].image' }]);
  });

  it('keeps the selector immutable', () => {
    const old = deployment({ selector: { matchLabels: { app: 'x' } }, template: JSON.parse(JSON.stringify(template)) });
    deploy.defaults!(old);
    const next = JSON.parse(JSON.stringify(old));
    next.spec.selector = { matchLabels: { app: 'x', tier: 'web' } };
    next.spec.template.metadata.labels.tier = 'web';
    const errs = deploy.validateUpdate!(next, old);
    expect(invalidStatus('apps', 'Deployment', 'd', errs).message).toBe(
      'Deployment.apps "d" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"x", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    );
  });

  it('rejects maxUnavailable and maxSurge both 0', () => {
    const d = deployment({ selector: { matchLabels: { app: 'x' } }, template: JSON.parse(JSON.stringify(template)), strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 0 } } });
    deploy.defaults!(d);
    expect(deploy.validateCreate!(d).map((e) => e.detail)).toEqual(['may not be 0 when `maxSurge` is 0']);
  });
});

describe('StatefulSet, DaemonSet, ReplicaSet', () => {
  it('StatefulSet defaults', () => {
    const ss: any = { spec: { serviceName: 'web', selector: { matchLabels: { app: 'x' } }, template: JSON.parse(JSON.stringify(template)), volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } };
    rulesFor('apps', 'StatefulSet')!.defaults!(ss);
    expect(ss.spec.podManagementPolicy).toBe('OrderedReady');
    expect(ss.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    expect(ss.spec.revisionHistoryLimit).toBe(10);
    expect(ss.spec.replicas).toBe(1);
    expect(ss.spec.volumeClaimTemplates[0].spec.volumeMode).toBe('Filesystem');
    expect(ss.spec.volumeClaimTemplates[0].status).toEqual({ phase: 'Pending' });
    expect(rulesFor('apps', 'StatefulSet')!.validateCreate!(ss)).toEqual([]);
    const next = JSON.parse(JSON.stringify(ss));
    next.spec.serviceName = 'other';
    expect(rulesFor('apps', 'StatefulSet')!.validateUpdate!(next, ss)[0]).toMatchObject({ type: 'FieldValueForbidden', field: 'spec' });
  });

  it('DaemonSet defaults and empty selector', () => {
    const ds: any = { spec: { selector: {}, template: JSON.parse(JSON.stringify(template)) } };
    rulesFor('apps', 'DaemonSet')!.defaults!(ds);
    expect(ds.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } });
    expect(ds.spec.revisionHistoryLimit).toBe(10);
    expect(rulesFor('apps', 'DaemonSet')!.validateCreate!(ds).map((e) => e.detail)).toEqual(['empty selector is invalid for daemonset']);
  });

  it('ReplicaSet defaults replicas and checks the selector', () => {
    const rs: any = { spec: { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['y'] }] }, template: JSON.parse(JSON.stringify(template)) } };
    rulesFor('apps', 'ReplicaSet')!.defaults!(rs);
    expect(rs.spec.replicas).toBe(1);
    expect(rulesFor('apps', 'ReplicaSet')!.validateCreate!(rs).map((e) => e.field)).toEqual(['spec.template.metadata.labels']);
  });
});
