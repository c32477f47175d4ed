import { describe, expect, it } from 'vitest';
import { Histogram } from './metrics-registry';

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
