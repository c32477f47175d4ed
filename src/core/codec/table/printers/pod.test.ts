import { describe, expect, it } from 'vitest';
import { podPrinter } from './pod';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const CREATED = '2024-01-01T11:55:00Z';

function pod(status: Record<string, unknown>, spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) {
  return {
    metadata: { name: 'p1', namespace: 'default', creationTimestamp: CREATED, ...metadata },
    spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
    status,
  };
}

const running = { running: { startedAt: '2024-01-01T11:55:05Z' } };

describe('pod printer', () => {
  it('has the v1.23 pod columns', () => {
    expect(podPrinter.columns.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Status', 'string', 0],
      ['Restarts', 'string', 0],
      ['Age', 'string', 0],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ]);
    expect(podPrinter.columns[0].format).toBe('name');
  });

  it('prints a running, ready pod', () => {
    const p = pod(
      { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }], containerStatuses: [{ name: 'c', ready: true, restartCount: 0, state: running }] },
      { nodeName: 'node-1' },
    );
    expect(podPrinter.print(p, NOW)).toEqual({ cells: ['p1', '1/1', 'Running', '0', '5m', '10.0.0.1', 'node-1', '<none>', '<none>'] });
  });

  it('prints a pending pod without statuses', () => {
    expect(podPrinter.print(pod({ phase: 'Pending' }), NOW).cells).toEqual(['p1', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>']);
  });

  it('shows a waiting reason and restarts with the time of the last restart', () => {
    const p = pod({
      phase: 'Running',
      containerStatuses: [
        {
          name: 'c',
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2024-01-01T11:58:00Z' } },
        },
      ],
    });
    expect(podPrinter.print(p, NOW).cells.slice(1, 4)).toEqual(['0/1', 'CrashLoopBackOff', '4 (2m ago)']);
  });

  it('prints terminated reasons, signals and exit codes', () => {
    const term = (t: Record<string, unknown>) => pod({ phase: 'Failed', containerStatuses: [{ name: 'c', state: { terminated: t } }] });
    expect(podPrinter.print(term({ exitCode: 137, reason: 'OOMKilled' }), NOW).cells[2]).toBe('OOMKilled');
    expect(podPrinter.print(term({ exitCode: 2 }), NOW).cells[2]).toBe('ExitCode:2');
    expect(podPrinter.print(term({ exitCode: 0, signal: 9 }), NOW).cells[2]).toBe('Signal:9');
  });

  it('marks finished pods with row conditions', () => {
    const done = pod({ phase: 'Succeeded', containerStatuses: [{ name: 'c', state: { terminated: { exitCode: 0, reason: 'Completed' } } }] });
    expect(podPrinter.print(done, NOW)).toMatchObject({
      cells: ['p1', '0/1', 'Completed', '0', '5m', '<none>', '<none>', '<none>', '<none>'],
      conditions: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
    });
    expect(podPrinter.print(pod({ phase: 'Failed' }), NOW).conditions?.[0].reason).toBe('Failed');
  });

  it('turns Completed back into Running/NotReady while another container runs', () => {
    const statuses = [
      { name: 'a', state: { terminated: { exitCode: 0, reason: 'Completed' } } },
      { name: 'b', ready: true, state: running },
    ];
    const spec = { containers: [{ name: 'a' }, { name: 'b' }] };
    const ready = pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: statuses }, spec);
    expect(podPrinter.print(ready, NOW).cells.slice(1, 3)).toEqual(['1/2', 'Running']);
    const notReady = pod({ phase: 'Running', containerStatuses: statuses }, spec);
    expect(podPrinter.print(notReady, NOW).cells[2]).toBe('NotReady');
  });

  it('reports init container progress and failures', () => {
    const spec = { initContainers: [{ name: 'i1' }, { name: 'i2' }] };
    const first = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 0 } } }, { name: 'i2', state: { running: {} } }] }, spec);
    expect(podPrinter.print(first, NOW).cells[2]).toBe('Init:1/2');
    const crash = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }] }, spec);
    expect(podPrinter.print(crash, NOW).cells.slice(2, 4)).toEqual(['Init:CrashLoopBackOff', '2']);
    const failed = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { terminated: { exitCode: 3 } } }] }, spec);
    expect(podPrinter.print(failed, NOW).cells[2]).toBe('Init:ExitCode:3');
    const initializing = pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i1', state: { waiting: { reason: 'PodInitializing' } } }] }, spec);
    expect(podPrinter.print(initializing, NOW).cells[2]).toBe('Init:0/2');
  });

  it('says Terminating once deletionTimestamp is set, Unknown for lost nodes', () => {
    const deleting = pod({ phase: 'Running', containerStatuses: [{ name: 'c', ready: true, state: running }] }, {}, { deletionTimestamp: '2024-01-01T11:59:00Z' });
    expect(podPrinter.print(deleting, NOW).cells[2]).toBe('Terminating');
    const lost = pod({ phase: 'Running', reason: 'NodeLost' }, {}, { deletionTimestamp: '2024-01-01T11:59:00Z' });
    expect(podPrinter.print(lost, NOW).cells[2]).toBe('Unknown');
    expect(podPrinter.print(pod({ phase: 'Failed', reason: 'Evicted' }), NOW).cells[2]).toBe('Evicted');
  });

  it('fills nominated node and readiness gates', () => {
    const p = pod(
      { phase: 'Running', nominatedNodeName: 'n2', conditions: [{ type: 'example.com/gate', status: 'True' }] },
      { readinessGates: [{ conditionType: 'example.com/gate' }, { conditionType: 'example.com/other' }] },
    );
    expect(podPrinter.print(p, NOW).cells.slice(7)).toEqual(['n2', '1/2']);
  });
});
