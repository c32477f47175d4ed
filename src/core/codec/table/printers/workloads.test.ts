import { describe, expect, it } from 'vitest';
import {
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  jobPrinter,
  podTemplatePrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './workloads';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const meta = { name: 'web', namespace: 'default', creationTimestamp: '2024-01-01T09:00:00Z' };
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }, { name: 'side', image: 'busybox' }] } };
const selector = { matchLabels: { app: 'web', tier: 'fe' } };

describe('workload printers', () => {
  it('deployment: Ready x/y, counts as integers, raw selector string', () => {
    const d = { metadata: meta, spec: { replicas: 3, selector, template }, status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 } };
    expect(deploymentPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers', 'Images', 'Selector']);
    expect(deploymentPrinter.print(d, NOW).cells).toEqual(['web', '2/3', 3, 2, '3h', 'nginx,side', 'nginx:1.25,busybox', 'app=web,tier=fe']);
  });

  it('deployment with a fresh status and expression selector', () => {
    const d = {
      metadata: meta,
      spec: { selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'dev'] }, { key: 'canary', operator: 'DoesNotExist' }] }, template },
      status: {},
    };
    expect(deploymentPrinter.print(d, NOW).cells).toEqual(['web', '0/1', 0, 0, '3h', 'nginx,side', 'nginx:1.25,busybox', '!canary,env in (dev,prod)']);
  });

  it('replicaset and replicationcontroller', () => {
    const rs = { metadata: meta, spec: { replicas: 2, selector, template }, status: { replicas: 2, readyReplicas: 1 } };
    expect(replicaSetPrinter.print(rs, NOW).cells).toEqual(['web', 2, 2, 1, '3h', 'nginx,side', 'nginx:1.25,busybox', 'app=web,tier=fe']);
    expect(replicaSetPrinter.print({ ...rs, spec: { ...rs.spec, selector: {} } }, NOW).cells[7]).toBe('<none>');
    const rc = { metadata: meta, spec: { replicas: 1, selector: { app: 'web' }, template }, status: {} };
    expect(replicationControllerPrinter.print(rc, NOW).cells).toEqual(['web', 1, 0, 0, '3h', 'nginx,side', 'nginx:1.25,busybox', 'app=web']);
  });

  it('statefulset and daemonset', () => {
    const ss = { metadata: meta, spec: { replicas: 3, template }, status: { readyReplicas: 3 } };
    expect(statefulSetPrinter.print(ss, NOW).cells).toEqual(['web', '3/3', '3h', 'nginx,side', 'nginx:1.25,busybox']);
    const ds = {
      metadata: meta,
      spec: { selector, template: { spec: { ...template.spec, nodeSelector: { 'kubernetes.io/os': 'linux' } } } },
      status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
    };
    expect(daemonSetPrinter.print(ds, NOW).cells).toEqual([
      'web', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '3h', 'nginx,side', 'nginx:1.25,busybox', 'app=web,tier=fe',
    ]);
    expect(daemonSetPrinter.print({ ...ds, spec: { selector, template } }, NOW).cells[6]).toBe('<none>');
  });

  it('job completions and durations', () => {
    const job = (spec: Record<string, unknown>, status: Record<string, unknown>) => ({ metadata: meta, spec: { ...spec, template }, status });
    expect(jobPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Completions', 'Duration', 'Age', 'Containers', 'Images', 'Selector']);
    const done = job({ completions: 1, selector: { matchLabels: { 'controller-uid': 'u1' } } }, {
      succeeded: 1,
      startTime: '2024-01-01T09:00:00Z',
      completionTime: '2024-01-01T09:00:12Z',
    });
    expect(jobPrinter.print(done, NOW).cells).toEqual(['web', '1/1', '12s', '3h', 'nginx,side', 'nginx:1.25,busybox', 'controller-uid=u1']);
    expect(jobPrinter.print(job({ parallelism: 3 }, { startTime: '2024-01-01T11:00:00Z' }), NOW).cells.slice(1, 3)).toEqual(['0/1 of 3', '60m']);
    expect(jobPrinter.print(job({ parallelism: 1 }, {}), NOW).cells.slice(1, 3)).toEqual(['0/1', '']);
  });

  it('cronjob (v1.23 columns: no Timezone)', () => {
    expect(cronJobPrinter.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'Name:string', 'Schedule:string', 'Suspend:boolean', 'Active:integer', 'Last Schedule:string', 'Age:string',
      'Containers:string', 'Images:string', 'Selector:string',
    ]);
    const cj = { metadata: meta, spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } }, status: { active: [{ name: 'j1' }], lastScheduleTime: '2024-01-01T11:55:00Z' } };
    expect(cronJobPrinter.print(cj, NOW).cells).toEqual(['web', '*/5 * * * *', 'False', 1, '5m', '3h', 'nginx,side', 'nginx:1.25,busybox', '<none>']);
    const fresh = { metadata: meta, spec: { schedule: '@hourly', jobTemplate: { spec: { template } } } };
    expect(cronJobPrinter.print(fresh, NOW).cells.slice(2, 5)).toEqual(['<unset>', 0, '<none>']);
  });

  it('podtemplate', () => {
    expect(podTemplatePrinter.print({ metadata: meta, template }, NOW).cells).toEqual(['web', 'nginx,side', 'nginx:1.25,busybox', 'app=web']);
  });
});
