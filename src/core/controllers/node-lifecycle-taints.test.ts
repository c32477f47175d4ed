import { describe, expect, it } from 'vitest';
import { reconcileTaints, unknownConditions, wantedNoExecuteTaint, wantedNoScheduleTaints } from './node-lifecycle-taints';

const node = (conditions: Record<string, string>, spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'n', creationTimestamp: '2022-01-01T00:00:00Z' },
  spec,
  status: { conditions: Object.entries(conditions).map(([type, status]) => ({ type, status, lastHeartbeatTime: '2022-01-01T00:00:10Z', lastTransitionTime: '2022-01-01T00:00:00Z', reason: 'R', message: 'M' })) },
});

describe('node lifecycle taint rules', () => {
  it('maps conditions and cordons to NoSchedule taints, and Ready to one NoExecute taint', () => {
    expect(wantedNoScheduleTaints(node({ Ready: 'True', MemoryPressure: 'True', DiskPressure: 'False', PIDPressure: 'True' }, { unschedulable: true }))).toEqual([
      'node.kubernetes.io/memory-pressure',
      'node.kubernetes.io/pid-pressure',
      'node.kubernetes.io/unschedulable',
    ]);
    expect(wantedNoExecuteTaint(node({ Ready: 'False' }), false)).toBe('node.kubernetes.io/not-ready');
    expect(wantedNoExecuteTaint(node({ Ready: 'Unknown' }), false)).toBe('node.kubernetes.io/unreachable');
    expect(wantedNoExecuteTaint(node({ Ready: 'Unknown' }), true)).toBeUndefined();
    expect(wantedNoExecuteTaint(node({ Ready: 'True' }), false)).toBeUndefined();
  });

  it('swaps its own taints and keeps everyone else\'s', () => {
    const n = node({ Ready: 'False' }, { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2022-01-01T00:00:00Z' }] });
    expect(reconcileTaints(n, ['node.kubernetes.io/not-ready'], 'node.kubernetes.io/not-ready', '2022-01-01T00:01:00Z')).toEqual([
      { key: 'dedicated', value: 'db', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2022-01-01T00:01:00Z' },
    ]);
    const settled = node({ Ready: 'True' }, { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] });
    expect(reconcileTaints(settled, [], undefined, '2022-01-01T00:01:00Z')).toBeUndefined();
  });

  it('turns the kubelet conditions Unknown, adding the ones never posted', () => {
    const n = node({ Ready: 'True', MemoryPressure: 'False' });
    const out = unknownConditions(n, '2022-01-01T00:01:00Z')!;
    expect(out.map((c) => [c.type, c.status, c.reason, c.lastHeartbeatTime])).toEqual([
      ['Ready', 'Unknown', 'NodeStatusUnknown', '2022-01-01T00:00:10Z'],
      ['MemoryPressure', 'Unknown', 'NodeStatusUnknown', '2022-01-01T00:00:10Z'],
      ['DiskPressure', 'Unknown', 'NodeStatusNeverUpdated', '2022-01-01T00:00:00Z'],
      ['PIDPressure', 'Unknown', 'NodeStatusNeverUpdated', '2022-01-01T00:00:00Z'],
    ]);
    expect(out[0]).toMatchObject({ message: 'Kubelet stopped posting node status.', lastTransitionTime: '2022-01-01T00:01:00Z' });
    expect(out[2]).toMatchObject({ message: 'Kubelet never posted node status.' });
    expect(unknownConditions({ ...n, status: { conditions: out } }, '2022-01-01T00:02:00Z')).toBeUndefined();
  });
});
