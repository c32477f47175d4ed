import { describe, expect, it } from 'vitest';
import {
  clusterRoleBindingPrinter,
  controllerRevisionPrinter,
  leasePrinter,
  podDisruptionBudgetPrinter,
  priorityClassPrinter,
  roleBindingPrinter,
  storageClassPrinter,
  webhookConfigurationPrinter,
} from './cluster';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, creationTimestamp: '2024-01-01T11:59:00Z', ...extra });

describe('cluster printers', () => {
  it('role bindings split subjects by kind', () => {
    expect(roleBindingPrinter.columns.map((c) => `${c.name}${c.priority ? '(w)' : ''}`)).toEqual(['Name', 'Role', 'Age', 'Users(w)', 'Groups(w)', 'ServiceAccounts(w)']);
    const rb = {
      metadata: meta('rb'),
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'default', namespace: 'ci' },
      ],
    };
    expect(roleBindingPrinter.print(rb, NOW).cells).toEqual(['rb', 'ClusterRole/view', '60s', 'alice, bob', 'devs', 'ci/default']);
    expect(clusterRoleBindingPrinter.print({ metadata: meta('crb'), roleRef: { kind: 'ClusterRole', name: 'admin' } }, NOW).cells).toEqual(['crb', 'ClusterRole/admin', '60s', '', '', '']);
  });

  it('lease holder', () => {
    expect(leasePrinter.print({ metadata: meta('kube-scheduler'), spec: { holderIdentity: 'node-1_abc' } }, NOW).cells).toEqual(['kube-scheduler', 'node-1_abc', '60s']);
    expect(leasePrinter.print({ metadata: meta('free'), spec: {} }, NOW).cells[1]).toBe('');
  });

  it('pod disruption budget', () => {
    const pdb = { metadata: meta('pdb'), spec: { minAvailable: '50%' }, status: { disruptionsAllowed: 1 } };
    expect(podDisruptionBudgetPrinter.print(pdb, NOW).cells).toEqual(['pdb', '50%', 'N/A', 1, '60s']);
    expect(podDisruptionBudgetPrinter.print({ metadata: meta('p2'), spec: { maxUnavailable: 1 } }, NOW).cells).toEqual(['p2', 'N/A', '1', 0, '60s']);
  });

  it('priority class and storage class', () => {
    expect(priorityClassPrinter.print({ metadata: meta('high'), value: 1000000, globalDefault: true }, NOW).cells).toEqual(['high', 1000000, true, '60s']);
    const sc = { metadata: meta('standard', { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }), provisioner: 'rancher.io/local-path', volumeBindingMode: 'WaitForFirstConsumer' };
    expect(storageClassPrinter.print(sc, NOW).cells).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', false, '60s']);
  });

  it('webhook configurations and controller revisions', () => {
    expect(webhookConfigurationPrinter.print({ metadata: meta('wh'), webhooks: [{}, {}] }, NOW).cells).toEqual(['wh', 2, '60s']);
    const cr = { metadata: meta('web-7d9', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true }] }), revision: 2 };
    expect(controllerRevisionPrinter.print(cr, NOW).cells).toEqual(['web-7d9', 'statefulset.apps/web', 2, '60s']);
    expect(controllerRevisionPrinter.print({ metadata: meta('orphan'), revision: 1 }, NOW).cells[1]).toBe('<none>');
  });
});
