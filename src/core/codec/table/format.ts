// Small text renderings shared by several printers (labels, selectors, containers, ...),
// each matching the Go helper kube-apiserver uses for that cell.
import type { ColumnDefinition, KubeObject } from './types';

/** Builds a column definition with the JSON field order of metav1.TableColumnDefinition. */
export function column(name: string, type: string, description: string, priority = 0, format = ''): ColumnDefinition {
  return { name, type, format, description, priority };
}

/** The `Name` column every printer starts with. */
export const NAME_COLUMN = column('Name', 'string', 'Name of the object, unique within its namespace (or cluster-wide for cluster-scoped kinds).', 0, 'name');
/** The `Age` column: time since metadata.creationTimestamp. */
export const AGE_COLUMN = column('Age', 'string', 'Time since the object was created (metadata.creationTimestamp).');

export function asArray(value: unknown): KubeObject[] {
  return Array.isArray(value) ? (value as KubeObject[]) : [];
}

export function asRecord(value: unknown): KubeObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as KubeObject) : {};
}

export function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/** Integer fields default to 0 when absent, as Go's zero values do. */
export function int(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
}

/** labels.Set.String(): sorted `k=v` pairs joined by commas. */
export function labelsString(labels: unknown): string {
  const map = asRecord(labels);
  return Object.keys(map)
    .sort()
    .map((k) => `${k}=${str(map[k])}`)
    .join(',');
}

/** labels.FormatLabels: like labelsString but "<none>" when empty. */
export function formatLabels(labels: unknown): string {
  return labelsString(labels) || '<none>';
}

/**
 * metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key; matchLabels become
 * `k=v`, expressions `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. Empty/nil selectors give "".
 */
export function selectorString(selector: unknown): string {
  if (selector === undefined || selector === null) return '';
  const sel = asRecord(selector);
  const reqs: { key: string; text: string }[] = [];
  const matchLabels = asRecord(sel.matchLabels);
  for (const key of Object.keys(matchLabels)) reqs.push({ key, text: `${key}=${str(matchLabels[key])}` });
  for (const expr of asArray(sel.matchExpressions)) {
    const key = str(expr.key);
    const values = (Array.isArray(expr.values) ? expr.values.map(str) : []).sort();
    const list = values.length === 1 ? values[0] : values.join(',');
    switch (expr.operator) {
      case 'In':
        reqs.push({ key, text: `${key} in (${list})` });
        break;
      case 'NotIn':
        reqs.push({ key, text: `${key} notin (${list})` });
        break;
      case 'Exists':
        reqs.push({ key, text: key });
        break;
      case 'DoesNotExist':
        reqs.push({ key, text: `!${key}` });
        break;
      default:
        // An invalid operator makes the Go conversion fail; FormatLabelSelector prints "<error>".
        return '<error>';
    }
  }
  return reqs
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((r) => r.text)
    .join(',');
}

/** metav1.FormatLabelSelector: selectorString, "<none>" when it is empty. */
export function formatLabelSelector(selector: unknown): string {
  return selectorString(selector) || '<none>';
}

/** layoutContainerCells: container names and images, each comma-joined in spec order. */
export function containerCells(podSpec: unknown): [string, string] {
  const containers = asArray(asRecord(podSpec).containers);
  return [containers.map((c) => str(c.name)).join(','), containers.map((c) => str(c.image)).join(',')];
}

/** printBoolPtr: "True"/"False", "<unset>" for a missing pointer. */
export function boolPtr(value: unknown): string {
  if (typeof value !== 'boolean') return '<unset>';
  return value ? 'True' : 'False';
}

/** kubectl storage helper GetAccessModesAsString: fixed order, duplicates removed. */
export function accessModes(modes: unknown): string {
  const set = new Set(Array.isArray(modes) ? modes.map(str) : []);
  const out: string[] = [];
  if (set.has('ReadWriteOnce')) out.push('RWO');
  if (set.has('ReadOnlyMany')) out.push('ROX');
  if (set.has('ReadWriteMany')) out.push('RWX');
  if (set.has('ReadWriteOncePod')) out.push('RWOP');
  return out.join(',');
}

/** Go's net.JoinHostPort: brackets around IPv6 hosts. */
export function joinHostPort(host: string, port: unknown): string {
  return host.includes(':') ? `[${host}]:${str(port)}` : `${host}:${str(port)}`;
}

/** A list capped at three entries with a "+ N more..." suffix (endpoints, slices). */
export function listWithMore(list: string[], total: number, max = 3): string {
  const shown = list.slice(0, max).join(',');
  return total > max ? `${shown} + ${total - max} more...` : shown;
}
