import { describe, expect, it } from 'vitest';
import { horizontalPodAutoscalerPrinter as hpa } from './autoscaling';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const metadata = { name: 'web', creationTimestamp: '2024-01-01T11:00:00Z' };
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

describe('horizontal pod autoscaler printer', () => {
  it('autoscaling/v1 CPU target', () => {
    const obj = { metadata, spec: { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 70 }, status: { currentReplicas: 2, currentCPUUtilizationPercentage: 35 } };
    expect(hpa.print(obj, NOW).cells).toEqual(['web', 'Deployment/web', '35%/70%', '1', 5, 2, '60m']);
    const fresh = { metadata, spec: { scaleTargetRef: ref, maxReplicas: 3 } };
    expect(hpa.print(fresh, NOW).cells).toEqual(['web', 'Deployment/web', '<unknown>/80%', '<unset>', 3, 0, '60m']);
  });

  it('autoscaling/v2 metrics, capped at two', () => {
    const metrics = [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    ];
    const currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12, averageValue: '12m' } } }];
    const obj = { metadata, spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 10, metrics }, status: { currentReplicas: 2, currentMetrics } };
    expect(hpa.print(obj, NOW).cells[2]).toBe('12%/60%, <unknown>/500Mi + 1 more...');
    const external = { metadata, spec: { scaleTargetRef: ref, maxReplicas: 2, metrics: [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } } }] } };
    expect(hpa.print(external, NOW).cells[2]).toBe('<unknown>/30 (avg)');
    expect(hpa.print({ metadata, spec: { scaleTargetRef: ref, maxReplicas: 2, metrics: [] } }, NOW).cells[2]).toBe('<none>');
  });
});
