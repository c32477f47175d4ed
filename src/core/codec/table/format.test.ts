import { describe, expect, it } from 'vitest';
import { accessModes, formatLabelSelector, formatLabels, joinHostPort, selectorString } from './format';
import { goText } from './custom';

describe('format helpers', () => {
  it('formats label maps sorted by key', () => {
    expect(formatLabels({ b: '2', a: '1' })).toBe('a=1,b=2');
    expect(formatLabels({})).toBe('<none>');
    expect(formatLabels(undefined)).toBe('<none>');
  });

  it('formats label selectors like labels.Selector.String()', () => {
    const sel = {
      matchLabels: { tier: 'fe' },
      matchExpressions: [
        { key: 'env', operator: 'NotIn', values: ['qa'] },
        { key: 'app', operator: 'Exists' },
        { key: 'zone', operator: 'In', values: ['b', 'a'] },
      ],
    };
    expect(selectorString(sel)).toBe('app,env notin (qa),tier=fe,zone in (a,b)');
    expect(selectorString({})).toBe('');
    expect(formatLabelSelector({})).toBe('<none>');
    expect(formatLabelSelector(null)).toBe('<none>');
    expect(formatLabelSelector({ matchExpressions: [{ key: 'a', operator: 'Bogus' }] })).toBe('<error>');
  });

  it('abbreviates access modes in a fixed order without duplicates', () => {
    expect(accessModes(['ReadWriteMany', 'ReadWriteOnce', 'ReadWriteMany'])).toBe('RWO,RWX');
    expect(accessModes(undefined)).toBe('');
  });

  it('joins host and port with IPv6 brackets', () => {
    expect(joinHostPort('10.0.0.1', 80)).toBe('10.0.0.1:80');
    expect(joinHostPort('fd00::1', 443)).toBe('[fd00::1]:443');
  });

  it('renders JSON values as Go fmt does', () => {
    expect(goText('s')).toBe('s');
    expect(goText(3)).toBe('3');
    expect(goText(0.5)).toBe('0.5');
    expect(goText(1234567.5)).toBe('1.2345675e+06');
    expect(goText(0.00001)).toBe('1e-05');
    expect(goText(false)).toBe('false');
    expect(goText({ b: [1, 'x'], a: null })).toBe('map[a:<nil> b:[1 x]]');
  });
});
