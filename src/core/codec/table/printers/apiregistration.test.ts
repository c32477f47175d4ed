import { describe, expect, it } from 'vitest';
import { apiServicePrinter } from './apiregistration';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const meta = { name: 'v1beta1.metrics.k8s.io', creationTimestamp: '2024-01-01T11:00:00Z' };
const cells = (obj: Record<string, unknown>) => apiServicePrinter.print(obj, NOW).cells;

describe('APIService printer', () => {
  it('has the aggregator columns, none of them wide', () => {
    expect(apiServicePrinter.columns.map((c) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Service', 'string', '', 0],
      ['Available', 'string', '', 0],
      ['Age', 'string', '', 0],
    ]);
  });

  it('prints Local or namespace/name, and the Available condition', () => {
    const local = { metadata: { ...meta, name: 'v1.apps' }, spec: { group: 'apps', version: 'v1' }, status: { conditions: [{ type: 'Available', status: 'True', reason: 'Local' }] } };
    expect(cells(local)).toEqual(['v1.apps', 'Local', 'True', '60m']);
    const remote = (conditions: unknown[]) => ({ metadata: meta, spec: { service: { namespace: 'kube-system', name: 'metrics-server' } }, status: { conditions } });
    expect(cells(remote([{ type: 'Available', status: 'False', reason: 'ServiceNotFound' }]))).toEqual(['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (ServiceNotFound)', '60m']);
    // Without a reason only the status; without the condition, Unknown.
    expect(cells(remote([{ type: 'Available', status: 'Unknown' }]))[2]).toBe('Unknown');
    expect(cells(remote([{ type: 'Other', status: 'False', reason: 'X' }]))[2]).toBe('Unknown');
    expect(cells({ metadata: meta, spec: {} })[2]).toBe('Unknown');
  });
});
