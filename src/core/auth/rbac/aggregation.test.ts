import { describe, expect, it } from 'vitest';
import { aggregateAll, aggregatedRules } from './aggregation';
import type { ClusterRole } from './types';

const cr = (name: string, labels: Record<string, string>, resources: string[][]): ClusterRole => ({
  metadata: { name, labels },
  rules: resources.map((rs) => ({ verbs: ['get'], apiGroups: [''], resources: rs })),
});

describe('aggregatedRules', () => {
  const target: ClusterRole = {
    metadata: { name: 'monitoring', labels: { agg: 'true' } },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'true' } }, { matchExpressions: [{ key: 'extra', operator: 'Exists' }] }] },
    rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  };
  const all = [
    target,
    cr('zeta', { agg: 'true' }, [['pods'], ['services']]),
    cr('alpha', { agg: 'true' }, [['endpoints'], ['pods']]),
    cr('beta', { extra: 'x' }, [['nodes'], ['services']]),
    cr('other', { agg: 'false' }, [['secrets']]),
  ];
  it('walks selectors in order, matches by name order, skips itself and duplicate rules', () => {
    expect(aggregatedRules(target, all)?.map((r) => r.resources![0])).toEqual(['endpoints', 'pods', 'services', 'nodes']);
  });
  it('is undefined without an aggregationRule, empty when nothing matches', () => {
    expect(aggregatedRules(all[1], all)).toBeUndefined();
    expect(aggregatedRules({ metadata: { name: 'x' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { none: 'y' } }] } }, all)).toEqual([]);
  });
  it('treats a nil/empty list difference as equal when de-duplicating', () => {
    const a = { metadata: { name: 'a', labels: { l: '1' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }] };
    const b = { metadata: { name: 'b', labels: { l: '1' } }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }] };
    const t: ClusterRole = { metadata: { name: 't' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { l: '1' } }] } };
    expect(aggregatedRules(t, [a, b, t])).toHaveLength(1);
  });
});

describe('aggregateAll', () => {
  it('propagates through chains (view → edit → admin)', () => {
    const roles: ClusterRole[] = [
      { metadata: { name: 'top' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { to: 'top' } }] } },
      { metadata: { name: 'mid', labels: { to: 'top' } }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { to: 'mid' } }] } },
      cr('leaf', { to: 'mid' }, [['pods']]),
    ];
    const out = aggregateAll(roles);
    expect(out.get('top')?.rules?.map((r) => r.resources![0])).toEqual(['pods']);
    expect(out.get('mid')?.rules?.map((r) => r.resources![0])).toEqual(['pods']);
    expect(roles[0].rules).toBeUndefined();
  });
});
