import { describe, expect, it } from 'vitest';
import { eventPrinter, eventsV1Printer } from './event';

const NOW = Date.parse('2024-01-01T12:00:00Z');

describe('event printer', () => {
  it('has Last Seen first and the wide columns after Message', () => {
    expect(eventPrinter.columns.map((c) => `${c.name}${c.priority ? '(w)' : ''}`)).toEqual([
      'Last Seen', 'Type', 'Reason', 'Object', 'Subobject(w)', 'Source(w)', 'Message', 'First Seen(w)', 'Count(w)', 'Name(w)',
    ]);
    expect(eventPrinter.columns[9].format).toBe('name');
  });

  it('prints a classic core/v1 event', () => {
    const ev = {
      metadata: { name: 'p1.17a', namespace: 'default' },
      involvedObject: { kind: 'Pod', name: 'p1', fieldPath: 'spec.containers{c}' },
      reason: 'Pulled',
      message: ' Container image "nginx" already present on machine\n',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2024-01-01T11:00:00Z',
      lastTimestamp: '2024-01-01T11:58:00Z',
      count: 3,
      type: 'Normal',
    };
    expect(eventPrinter.print(ev, NOW).cells).toEqual([
      '2m', 'Normal', 'Pulled', 'pod/p1', 'spec.containers{c}', 'kubelet, node-1', 'Container image "nginx" already present on machine', '60m', 3, 'p1.17a',
    ]);
  });

  it('falls back to eventTime, series and reporting controller', () => {
    const ev = {
      metadata: { name: 'e2' },
      involvedObject: { kind: 'Node' },
      reason: 'Starting',
      type: 'Warning',
      eventTime: '2024-01-01T11:50:00.000000Z',
      reportingComponent: 'kube-proxy',
      series: { count: 7, lastObservedTime: '2024-01-01T11:59:30.000000Z' },
    };
    expect(eventPrinter.print(ev, NOW).cells).toEqual(['30s', 'Warning', 'Starting', 'node', '', 'kube-proxy', '', '10m', 7, 'e2']);
    const single = { metadata: { name: 'e3' }, involvedObject: { kind: 'Pod', name: 'x' }, eventTime: '2024-01-01T11:59:00.000000Z' };
    expect(eventPrinter.print(single, NOW).cells.slice(7, 9)).toEqual(['60s', 1]);
  });

  it('reads events.k8s.io/v1 field names', () => {
    const ev = {
      metadata: { name: 'e4' },
      regarding: { kind: 'Deployment', name: 'web' },
      reason: 'ScalingReplicaSet',
      note: 'Scaled up replica set web-1 to 1',
      type: 'Normal',
      reportingController: 'deployment-controller',
      deprecatedFirstTimestamp: '2024-01-01T11:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T11:00:00Z',
      deprecatedCount: 1,
    };
    expect(eventsV1Printer.print(ev, NOW).cells).toEqual([
      '60m', 'Normal', 'ScalingReplicaSet', 'deployment/web', '', 'deployment-controller', 'Scaled up replica set web-1 to 1', '60m', 1, 'e4',
    ]);
  });
});
