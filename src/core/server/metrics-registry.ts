// A minimal Prometheus registry: counters, gauges and histograms keyed by label sets, written in
// the text exposition format (version 0.0.4) the way client_golang writes it — families sorted
// by name, label names sorted, `le` last on buckets. Deprecated families past their release are
// hidden (metrics-hidden.ts) unless hidden metrics are shown.
import { isHiddenDeprecation } from './metrics-hidden';

export type Labels = Record<string, string>;

/** Label values escaped as the text format requires (backslash, quote, newline). */
function escapeValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const parts = Object.keys(labels)
    .sort()
    .map((k) => `${k}="${escapeValue(labels[k])}"`);
  if (extra) parts.push(`${extra[0]}="${escapeValue(extra[1])}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

/**
 * Sample values as client_golang writes them: strconv.FormatFloat(v, 'g', -1, 64), the shortest
 * digits, in exponent form when the exponent is below -4 or at least 6 (`4.624384e+06`, `1e-05`).
 */
export function formatNumber(n: number): string {
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (Number.isNaN(n)) return 'NaN';
  if (n === 0) return '0';
  const [mantissa, exponentText] = Math.abs(n).toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  // Between those bounds JavaScript's shortest form is Go's plain one.
  if (exponent >= -4 && exponent < 6) return String(n);
  const digits = `${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  return `${n < 0 ? '-' : ''}${mantissa}e${digits}`;
}

/** Series key: label values in the order given. Callers build a metric's labels in one fixed key order. */
const keyOf = (labels: Labels): string => {
  let key = '';
  for (const k in labels) key += `${k}\u0000${labels[k]}\u0001`;
  return key;
};

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(): string[];
}

export class Counter implements Family {
  readonly type: 'counter' | 'gauge' = 'counter';
  protected values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  add(labels: Labels, delta = 1): void {
    this.entry(labels).value += delta;
  }

  /** The series of these labels (created at 0), for callers that keep it and add to it directly. */
  entry(labels: Labels): { labels: Labels; value: number } {
    const key = keyOf(labels);
    let cur = this.values.get(key);
    if (!cur) {
      cur = { labels: { ...labels }, value: 0 };
      this.values.set(key, cur);
    }
    return cur;
  }

  get(labels: Labels): number {
    return this.values.get(keyOf(labels))?.value ?? 0;
  }

  render(): string[] {
    return [...this.values.values()].map((v) => `${this.name}${labelText(v.labels)} ${formatNumber(v.value)}`).sort();
  }
}

export class Gauge extends Counter {
  override readonly type = 'gauge' as const;

  set(labels: Labels, value: number): void {
    this.values.set(keyOf(labels), { labels: { ...labels }, value });
  }
}

/** A gauge whose samples are computed when scraped (object counts). */
export class GaugeFunc implements Family {
  readonly type = 'gauge' as const;
  constructor(
    readonly name: string,
    readonly help: string,
    private collect: () => Array<{ labels: Labels; value: number }>,
  ) {}

  render(): string[] {
    return this.collect()
      .map((s) => `${this.name}${labelText(s.labels)} ${formatNumber(s.value)}`)
      .sort();
  }
}

/** One histogram series. `counts[i]` counts observations in bucket i alone (made cumulative when written). */
export interface HistogramSeries {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

export class Histogram implements Family {
  readonly type = 'histogram' as const;
  private all = new Map<string, HistogramSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    private buckets: readonly number[],
  ) {}

  observe(labels: Labels, value: number): void {
    this.observeSeries(this.series(labels), value);
  }

  /** The series of these labels, for callers that keep it (see observeSeries). */
  series(labels: Labels): HistogramSeries {
    const key = keyOf(labels);
    let s = this.all.get(key);
    if (!s) {
      s = { labels: { ...labels }, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.all.set(key, s);
    }
    return s;
  }

  /** Counts the value in its own bucket only: one increment per observation, not one per bucket. */
  observeSeries(s: HistogramSeries, value: number): void {
    const b = this.buckets;
    let i = 0;
    while (i < b.length && value > b[i]) i++;
    if (i < b.length) s.counts[i]++;
    s.sum += value;
    s.count++;
  }

  render(): string[] {
    const out: string[] = [];
    const all = [...this.all.values()].sort((a, b) => labelText(a.labels).localeCompare(labelText(b.labels)));
    for (const s of all) {
      let cumulative = 0;
      this.buckets.forEach((le, i) => {
        cumulative += s.counts[i];
        out.push(`${this.name}_bucket${labelText(s.labels, ['le', formatNumber(le)])} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${formatNumber(s.sum)}`);
      out.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

export class MetricsRegistry {
  private families: Family[] = [];
  private hidden = new Set<Family>();
  /** `--show-hidden-metrics-for-version` was given: hidden families are written too. */
  showHidden = false;

  /** `deprecatedVersion` (`1.22.0`) hides the family from the next minor release on. */
  register<F extends Family>(family: F, deprecatedVersion?: string): F {
    this.families.push(family);
    if (deprecatedVersion !== undefined && isHiddenDeprecation(deprecatedVersion)) this.hidden.add(family);
    return family;
  }

  /** The text exposition; families without samples are left out, as client_golang does. */
  render(): string {
    const lines: string[] = [];
    for (const f of [...this.families].sort((a, b) => a.name.localeCompare(b.name))) {
      if (!this.showHidden && this.hidden.has(f)) continue;
      const samples = f.render();
      if (!samples.length) continue;
      lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`, ...samples);
    }
    return lines.length ? lines.join('\n') + '\n' : '';
  }
}
