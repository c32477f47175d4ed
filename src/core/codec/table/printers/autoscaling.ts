// HorizontalPodAutoscaler rows for autoscaling/v1 and v2(beta2) objects: TARGETS as current/target.
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, int, str } from '../format';
import { age } from '../time';
import type { KubeObject, Printer } from '../types';

/** Default CPU target the server applies when an HPA names no metric. */
const DEFAULT_CPU_UTILIZATION = 80;

function quantity(value: unknown): string {
  return value === undefined || value === null ? '0' : str(value);
}

function formatMetric(spec: KubeObject, status: KubeObject | undefined): string {
  const cur = (key: string) => asRecord(asRecord(status?.[key]).current);
  const has = (key: string) => status !== undefined && status[key] !== undefined && status[key] !== null;
  switch (spec.type) {
    case 'External':
    case 'Object': {
      const key = spec.type === 'External' ? 'external' : 'object';
      const target = asRecord(asRecord(spec[key]).target);
      if (target.averageValue !== undefined) {
        const current = has(key) && cur(key).averageValue !== undefined ? str(cur(key).averageValue) : '<unknown>';
        return `${current}/${str(target.averageValue)} (avg)`;
      }
      const current = has(key) ? quantity(cur(key).value) : '<unknown>';
      return `${current}/${quantity(target.value)}`;
    }
    case 'Pods': {
      const target = asRecord(asRecord(spec.pods).target);
      const current = has('pods') ? quantity(cur('pods').averageValue) : '<unknown>';
      return `${current}/${quantity(target.averageValue)}`;
    }
    case 'Resource':
    case 'ContainerResource': {
      const key = spec.type === 'Resource' ? 'resource' : 'containerResource';
      const target = asRecord(asRecord(spec[key]).target);
      if (target.averageValue !== undefined) {
        const current = has(key) ? quantity(cur(key).averageValue) : '<unknown>';
        return `${current}/${str(target.averageValue)}`;
      }
      const current = has(key) && typeof cur(key).averageUtilization === 'number' ? `${cur(key).averageUtilization}%` : '<unknown>';
      const goal = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
      return `${current}/${goal}`;
    }
    default:
      return '<unknown type>';
  }
}

/** formatHPAMetrics: first two metrics, then "+ N more...". */
function formatMetrics(specs: KubeObject[], statuses: KubeObject[]): string {
  if (specs.length === 0) return '<none>';
  const list = specs.map((s, i) => formatMetric(s, statuses[i]));
  return list.length > 2 ? `${list.slice(0, 2).join(', ')} + ${list.length - 2} more...` : list.join(', ');
}

function targets(obj: KubeObject): string {
  const spec = asRecord(obj.spec);
  const status = asRecord(obj.status);
  if (Array.isArray(spec.metrics)) return formatMetrics(asArray(spec.metrics), asArray(status.currentMetrics));
  // autoscaling/v1 only knows a CPU utilization target.
  const goal = typeof spec.targetCPUUtilizationPercentage === 'number' ? spec.targetCPUUtilizationPercentage : DEFAULT_CPU_UTILIZATION;
  const current = typeof status.currentCPUUtilizationPercentage === 'number' ? `${status.currentCPUUtilizationPercentage}%` : '<unknown>';
  return `${current}/${goal}%`;
}

export const horizontalPodAutoscalerPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Reference', 'string', 'Scaled resource, as Kind/name.'),
    column('Targets', 'string', 'Current/target value of each metric.'),
    column('MinPods', 'string', 'Lower replica limit.'),
    column('MaxPods', 'string', 'Upper replica limit.'),
    column('Replicas', 'string', 'Current number of replicas.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const ref = asRecord(spec.scaleTargetRef);
    const meta = asRecord(obj.metadata);
    return {
      cells: [
        str(meta.name),
        `${str(ref.kind)}/${str(ref.name)}`,
        targets(obj),
        typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>',
        int(spec.maxReplicas),
        int(asRecord(obj.status).currentReplicas),
        age(meta.creationTimestamp, now),
      ],
    };
  },
};
