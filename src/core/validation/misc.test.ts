import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

describe('Namespace', () => {
  it('defaults finalizers, phase and the name label', () => {
    const ns: any = { metadata: { name: 'team-a' } };
    rulesFor('', 'Namespace')!.defaults!(ns);
    expect(ns).toEqual({ metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  });
});

describe('PersistentVolumeClaim', () => {
  const rules = rulesFor('', 'PersistentVolumeClaim')!;
  it('defaults and accepts a valid claim', () => {
    const pvc: any = { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    rules.defaults!(pvc);
    expect(pvc.spec.volumeMode).toBe('Filesystem');
    expect(pvc.status).toEqual({ phase: 'Pending' });
    expect(rules.validateCreate!(pvc)).toEqual([]);
  });
  it('requires access modes and storage', () => {
    expect(rules.validateCreate!({ spec: { accessModes: ['ReadWriteAlways'] } })).toEqual([
      { type: 'FieldValueNotSupported', field: 'spec.accessModes', value: 'ReadWriteAlways', supported: ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'] },
      { type: 'FieldValueRequired', field: 'spec.resources[storage]' },
    ]);
    expect(rules.validateCreate!({ spec: { resources: { requests: { storage: '0' } } } })).toEqual([
      { type: 'FieldValueRequired', field: 'spec.accessModes', detail: 'at least 1 access mode is required' },
      { type: 'FieldValueInvalid', field: 'spec.resources[storage]', value: '0', detail: 'must be greater than zero' },
    ]);
  });
  it('forbids spec changes on update', () => {
    const old: any = { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } };
    rules.defaults!(old);
    const next = JSON.parse(JSON.stringify(old));
    expect(rules.validateUpdate!(next, old)).toEqual([]);
    next.spec.accessModes = ['ReadWriteMany'];
    const errs = rules.validateUpdate!(next, old);
    expect(errs[0]).toMatchObject({ type: 'FieldValueForbidden', field: 'spec' });
    expect(errs[0].detail).toBe('spec is immutable after creation except resources.requests for bound claims\n{"accessModes":["ReadWrite\n\nA: Many"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"}\n\nB: Once"],"resources":{"requests":{"storage":"1Gi"}},"volumeMode":"Filesystem"}\n\n');
  });
});

describe('RBAC', () => {
  it('checks policy rules', () => {
    expect(rulesFor('rbac.authorization.k8s.io', 'Role')!.validateCreate!({ rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] })).toEqual([]);
    expect(rulesFor('rbac.authorization.k8s.io', 'Role')!.validateCreate!({ rules: [{ resources: ['pods'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }] })).toEqual([
      { type: 'FieldValueRequired', field: 'rules[0].verbs', detail: 'verbs must contain at least one value' },
      { type: 'FieldValueRequired', field: 'rules[0].apiGroups', detail: 'resource rules must supply at least one api group' },
      { type: 'FieldValueInvalid', field: 'rules[1].nonResourceURLs', value: ['/healthz'], detail: 'namespaced rules cannot apply to non-resource URLs' },
    ]);
    expect(rulesFor('rbac.authorization.k8s.io', 'ClusterRole')!.validateCreate!({ rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] })).toEqual([]);
  });

  it('defaults subject apiGroups and validates bindings', () => {
    const crb = rulesFor('rbac.authorization.k8s.io', 'ClusterRoleBinding')!;
    const b: any = { roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', name: 'sa' }] };
    crb.defaults!(b);
    expect(b.roleRef.apiGroup).toBe('rbac.authorization.k8s.io');
    expect(b.subjects[0].apiGroup).toBe('rbac.authorization.k8s.io');
    expect(b.subjects[1].apiGroup).toBeUndefined(); // empty in Go, so omitted from JSON
    expect(crb.validateCreate!(b)).toEqual([{ type: 'FieldValueRequired', field: 'subjects[1].namespace' }]);
    const next = JSON.parse(JSON.stringify(b));
    next.roleRef.name = 'edit';
    next.subjects[1].namespace = 'default';
    expect(invalidStatus('rbac.authorization.k8s.io', 'ClusterRoleBinding', 'b', crb.validateUpdate!(next, b)).message).toBe(
      'ClusterRoleBinding.rbac.authorization.k8s.io "b" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef',
    );
    const rb = rulesFor('rbac.authorization.k8s.io', 'RoleBinding')!;
    expect(rb.validateCreate!({ roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Thing', name: 'x' }, subjects: [{ kind: 'Robot', name: 'r' }] })).toEqual([
      { type: 'FieldValueNotSupported', field: 'roleRef.kind', value: 'Thing', supported: ['Role', 'ClusterRole'] },
      { type: 'FieldValueNotSupported', field: 'subjects[0].kind', value: 'Robot', supported: ['ServiceAccount', 'User', 'Group'] },
    ]);
  });
});

describe('Ingress', () => {
  const rules = rulesFor('networking.k8s.io', 'Ingress')!;
  const backend = { service: { name: 'web', port: { number: 80 } } };
  it('accepts a valid ingress', () => {
    expect(rules.validateCreate!({ spec: { rules: [{ host: 'example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] } })).toEqual([]);
  });
  it('requires pathType and a backend port', () => {
    expect(
      rules.validateCreate!({ spec: { rules: [{ http: { paths: [{ path: '/' , backend }, { path: 'x', pathType: 'Exact', backend: { service: { name: 'web' } } }] } }] } }),
    ).toEqual([
      { type: 'FieldValueRequired', field: 'spec.rules[0].http.paths[0].pathType', detail: 'pathType must be specified' },
      { type: 'FieldValueInvalid', field: 'spec.rules[0].http.paths[1].path', value: 'x', detail: 'must be an absolute path' },
      { type: 'FieldValueRequired', field: 'spec.rules[0].http.paths[1].backend', detail: 'port name or number is required' },
    ]);
  });
});

describe('Event and Lease', () => {
  it('event namespace must match the involved object', () => {
    expect(rulesFor('', 'Event')!.validateCreate!({ metadata: { namespace: 'a' }, involvedObject: { namespace: 'b' } })).toEqual([
      { type: 'FieldValueInvalid', field: 'involvedObject.namespace', value: 'b', detail: 'does not match event.namespace' },
    ]);
  });
  it('lease duration must be positive', () => {
    expect(rulesFor('coordination.k8s.io', 'Lease')!.validateCreate!({ spec: { leaseDurationSeconds: 0 } })).toEqual([
      { type: 'FieldValueInvalid', field: 'spec.leaseDurationSeconds', value: 0, detail: 'must be greater than 0' },
    ]);
  });
});
