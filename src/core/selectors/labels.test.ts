import { describe, expect, it } from 'vitest';
import { labelSelectorFromObject, labelSelectorToString, matchesLabels, parseLabelSelector } from './labels';

const m = (sel: string, labels: Record<string, string>) => matchesLabels(parseLabelSelector(sel), labels);

describe('parseLabelSelector', () => {
  it('parses every operator, sorted by key', () => {
    const s = parseLabelSelector(' z = 1 , a==b,c!=d, e in (y, x), f notin (q),g,!h,i>5,j<7');
    expect(s.requirements).toEqual([
      { key: 'a', operator: '==', values: ['b'] },
      { key: 'c', operator: '!=', values: ['d'] },
      { key: 'e', operator: 'in', values: ['x', 'y'] },
      { key: 'f', operator: 'notin', values: ['q'] },
      { key: 'g', operator: 'exists', values: [] },
      { key: 'h', operator: '!', values: [] },
      { key: 'i', operator: 'gt', values: ['5'] },
      { key: 'j', operator: 'lt', values: ['7'] },
      { key: 'z', operator: '=', values: ['1'] },
    ]);
  });

  it('accepts empty values and keywords as values', () => {
    expect(parseLabelSelector('a=').requirements[0].values).toEqual(['']);
    expect(parseLabelSelector('a in ()').requirements[0].values).toEqual(['']);
    expect(parseLabelSelector('a in (,b)').requirements[0].values).toEqual(['', 'b']);
    expect(parseLabelSelector('a in (in,notin)').requirements[0].values).toEqual(['in', 'notin']);
    expect(parseLabelSelector('example.com/x=y').requirements[0].key).toBe('example.com/x');
    expect(parseLabelSelector('').requirements).toEqual([]);
  });

  it('matches like kube', () => {
    expect(m('a=b', { a: 'b' })).toBe(true);
    expect(m('a=b', { a: 'c' })).toBe(false);
    expect(m('a!=b', {})).toBe(true);
    expect(m('a notin (x)', {})).toBe(true);
    expect(m('a notin (x)', { a: 'x' })).toBe(false);
    expect(m('a in (x,y)', { a: 'y' })).toBe(true);
    expect(m('a', { a: '' })).toBe(true);
    expect(m('!a', { a: '' })).toBe(false);
    expect(m('a>5', { a: '6' })).toBe(true);
    expect(m('a>5', { a: 'x' })).toBe(false);
    expect(m('a<5', { a: '-1' })).toBe(true);
    expect(m('a=b,c', { a: 'b' })).toBe(false);
  });

  it('reports syntax errors with kube wording', () => {
    expect(() => parseLabelSelector('a in b')).toThrow("unable to parse requirement: found 'b' expected: '('");
    expect(() => parseLabelSelector('a in (b')).toThrow("unable to parse requirement: found '', expected: ',' or ')'");
    expect(() => parseLabelSelector('a b')).toThrow("unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
    expect(() => parseLabelSelector('a=b,')).toThrow("found '', expected: identifier after ','");
    expect(() => parseLabelSelector('a=b c')).toThrow("found 'c', expected: ',' or 'end of string'");
    expect(() => parseLabelSelector('=a')).toThrow("found '=', expected: !, identifier, or 'end of string'");
    expect(() => parseLabelSelector('!a=b')).toThrow("found '=', expected: ',' or 'end of string'");
    expect(() => parseLabelSelector('a=(b)')).toThrow("unable to parse requirement: found '(', expected: identifier");
    expect(() => parseLabelSelector('a in (b c)')).toThrow("found 'c', expected: ',' or ')'");
    expect(() => parseLabelSelector('a in (=)')).toThrow("found '=', expected: ',', ')' or identifier");
  });

  it('validates keys and values', () => {
    expect(() => parseLabelSelector('-a=b')).toThrow(
      `unable to parse requirement: <nil>: Invalid value: "-a": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
    );
    expect(() => parseLabelSelector('a=-b')).toThrow(
      `unable to parse requirement: values[0][a]: Invalid value: "-b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    );
    expect(() => parseLabelSelector('a>b')).toThrow(`unable to parse requirement: values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`);
    expect(() => parseLabelSelector('a/b/c')).toThrow('a qualified name must consist of');
    expect(() => parseLabelSelector('A_/b')).toThrow('prefix part a lowercase RFC 1123 subdomain');
    expect(() => parseLabelSelector(`a=${'x'.repeat(64)}`)).toThrow('must be no more than 63 characters');
  });
});

describe('labelSelectorFromObject', () => {
  it('combines matchLabels and matchExpressions', () => {
    const s = labelSelectorFromObject({ matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }, { key: 'x', operator: 'DoesNotExist' }] });
    expect(matchesLabels(s, { app: 'web', tier: 'fe' })).toBe(true);
    expect(matchesLabels(s, { app: 'web', tier: 'fe', x: '1' })).toBe(false);
    expect(labelSelectorToString(s)).toBe('app=web,tier in (be,fe),!x');
  });
  it('null matches nothing, empty matches everything', () => {
    expect(matchesLabels(labelSelectorFromObject(null), {})).toBe(false);
    expect(matchesLabels(labelSelectorFromObject({}), { a: 'b' })).toBe(true);
  });
  it('rejects bad operators and empty In', () => {
    expect(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toThrow('"Foo" is not a valid label selector operator');
    expect(() => labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty",
    );
  });
});
