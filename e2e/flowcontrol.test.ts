// API Priority and Fairness seen by the real kubectl: the bootstrap FlowSchemas and priority
// levels in the server's table columns, and the X-Kubernetes-PF-* headers of the requests it sends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster?.stop();
});

/** kubectl's table output as rows of cells (columns are separated by two or more spaces). */
const table = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s{2,}/));

describe('kubectl and API Priority and Fairness', () => {
  it('lists the bootstrap FlowSchemas in matching order with the server columns', async () => {
    const r = await cluster.kubectl(['get', 'flowschemas']);
    expect(r.stderr).toBe('');
    const rows = table(r.stdout);
    expect(rows[0]).toEqual(['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
    expect(rows.slice(1).map((c) => [c[0], c[1], c[2], c[3], c[5]])).toEqual([
      ['exempt', 'exempt', '1', '<none>', 'False'],
      ['probes', 'exempt', '2', '<none>', 'False'],
      ['system-leader-election', 'leader-election', '100', 'ByUser', 'False'],
      ['workload-leader-election', 'leader-election', '200', 'ByUser', 'False'],
      ['system-node-high', 'node-high', '400', 'ByUser', 'False'],
      ['system-nodes', 'system', '500', 'ByUser', 'False'],
      ['kube-controller-manager', 'workload-high', '800', 'ByNamespace', 'False'],
      ['kube-scheduler', 'workload-high', '800', 'ByNamespace', 'False'],
      ['kube-system-service-accounts', 'workload-high', '900', 'ByNamespace', 'False'],
      ['service-accounts', 'workload-low', '9000', 'ByUser', 'False'],
      ['global-default', 'global-default', '9900', 'ByUser', 'False'],
      ['catch-all', 'catch-all', '10000', 'ByUser', 'False'],
    ]);
  });

  it('lists the priority levels with their shares and queuing', async () => {
    const r = await cluster.kubectl(['get', 'prioritylevelconfigurations']);
    const rows = table(r.stdout);
    expect(rows[0]).toEqual(['NAME', 'TYPE', 'ASSUREDCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
    expect(rows.slice(1).map((c) => c.slice(0, 6))).toEqual([
      ['catch-all', 'Limited', '5', '<none>', '<none>', '<none>'],
      ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>'],
      ['global-default', 'Limited', '20', '128', '6', '50'],
      ['leader-election', 'Limited', '10', '16', '4', '50'],
      ['node-high', 'Limited', '40', '64', '6', '50'],
      ['system', 'Limited', '30', '64', '6', '50'],
      ['workload-high', 'Limited', '40', '128', '6', '50'],
      ['workload-low', 'Limited', '100', '128', '6', '50'],
    ]);
  });

  it('responses carry the uids of the matched FlowSchema and priority level (exempt for the admin)', async () => {
    const uid = async (kind: string) => (await cluster.kubectl(['get', kind, 'exempt', '-o', 'jsonpath={.metadata.uid}'])).stdout;
    const fs = await uid('flowschema');
    const pl = await uid('prioritylevelconfiguration');
    expect(fs).toMatch(/^[0-9a-f-]{36}$/);
    const r = await cluster.kubectl(['get', '--raw', '/version', '-v=8']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`X-Kubernetes-Pf-Flowschema-Uid: ${fs}`);
    expect(r.stderr).toContain(`X-Kubernetes-Pf-Prioritylevel-Uid: ${pl}`);
    const res = await fetch(`${cluster.url}/api/v1/namespaces/default/configmaps`);
    expect([res.headers.get('x-kubernetes-pf-flowschema-uid'), res.headers.get('x-kubernetes-pf-prioritylevel-uid')]).toEqual([fs, pl]);
  });
});
