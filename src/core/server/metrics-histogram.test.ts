import { describe, expect, it } from 'vitest';
import { Histogram, formatNumber } from './metrics-registry';

describe('histogram', () => {
  it('writes cumulative bucket counts, sum and count', () => {
    const h = new Histogram('h_seconds', 'help', [0.1, 0.5, 1]);
    for (const v of [0.05, 0.1, 0.3, 0.7, 2]) h.observe({ verb: 'GET' }, v);
    expect(h.render()).toEqual([
      'h_seconds_bucket{verb="GET",le="0.1"} 2',
      'h_seconds_bucket{verb="GET",le="0.5"} 3',
      'h_seconds_bucket{verb="GET",le="1"} 4',
      'h_seconds_bucket{verb="GET",le="+Inf"} 5',
      'h_seconds_sum{verb="GET"} 3.15',
      'h_seconds_count{verb="GET"} 5',
    ]);
  });
});

describe('sample values', () => {
  it('are written as client_golang writes them (Go %g, shortest digits)', () => {
    expect([0, 1, 20480, 999999, 4624384, 1e6, 0.0001, 0.000123, 0.0000123, 3.15, -2500000, Infinity].map(formatNumber)).toEqual([
      '0', '1', '20480', '999999', '4.624384e+06', '1e+06', '0.0001', '0.000123', '1.23e-05', '3.15', '-2.5e+06', '+Inf',
    ]);
  });
});
