import { describe, expect, it } from 'vitest';
import { goFloat, parseYaml, toYaml, yamlDuplicateKeyErrors } from './yaml';
import { goYamlKeyLess, resolvesToNonString, stringStyle } from './yaml-scalar';

describe('toYaml', () => {
  it('writes a ConfigMap like kube-apiserver', () => {
    const cm = {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'x', namespace: 'default', creationTimestamp: '2024-01-02T03:04:05Z', labels: { app: 'web' }, managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:data': {} } }] },
      data: { a: 'yes', b: '123', c: '', d: 'line1\nline2\n', e: 'x: y', f: 'plain text', g: '- a', h: "it's", i: 'tab\there' },
    };
    expect(toYaml(cm)).toBe(
      [
        'apiVersion: v1',
        'data:',
        '  a: "yes"',
        '  b: "123"',
        '  c: ""',
        '  d: |',
        '    line1',
        '    line2',
        "  e: 'x: y'",
        '  f: plain text',
        "  g: '- a'",
        "  h: it's",
        '  i: "tab\\there"',
        'kind: ConfigMap',
        'metadata:',
        '  creationTimestamp: "2024-01-02T03:04:05Z"',
        '  labels:',
        '    app: web',
        '  managedFields:',
        '  - fieldsV1:',
        '      f:data: {}',
        '    manager: kubectl',
        '  name: x',
        '  namespace: default',
        '',
      ].join('\n'),
    );
  });

  it('handles sequences, empties, numbers and chomping', () => {
    expect(toYaml({ a: [], b: {}, c: null, d: 1.5, e: 3, f: true, g: [[1, 2], { x: 'y' }], h: 'no newline\nend', i: 'two\n\n' })).toBe(
      'a: []\nb: {}\nc: null\nd: 1.5\ne: 3\nf: true\ng:\n- - 1\n  - 2\n- x: "y"\nh: |-\n  no newline\n  end\ni: |+\n  two\n\n',
    );
    expect(toYaml({ s: '  lead\nx' })).toBe('s: |2-\n    lead\n  x\n');
    expect(toYaml({ s: 'trailing \nx' })).toBe('s: "trailing \\nx"\n');
    expect(toYaml([])).toBe('[]\n');
    expect(toYaml({ k: { keepme: 1, a: 2 } }, { keepKeyOrder: true })).toBe('k:\n  keepme: 1\n  a: 2\n');
  });

  it('folds long plain strings after column 80', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    const out = toYaml({ description: words });
    const lines = out.split('\n');
    expect(lines[0].length).toBeGreaterThan(80);
    expect(lines[0]).toMatch(/^description: word0 .* word\d+$/);
    expect(lines[1].startsWith('  word')).toBe(true);
    expect(parseYaml(out)).toEqual({ ok: true, value: { description: words } });
  });

  it('escapes in double quotes like libyaml', () => {
    expect(toYaml({ e: 'smile 😀' })).toBe('e: "smile \\U0001F600"\n');
    expect(toYaml({ q: 'true' })).toBe('q: "true"\n');
    expect(toYaml({ num: '0x1F' })).toBe('num: "0x1F"\n');
    // `n` itself is a YAML 1.1 boolean, so go-yaml quotes the key too.
    expect(toYaml({ n: 'x' })).toBe('"n": x\n');
    expect(toYaml({ t: '1:20' })).toBe('t: "1:20"\n');
    expect(toYaml({ u: 'http://x:80/p' })).toBe('u: http://x:80/p\n');
  });
});

describe('scalar rules', () => {
  it('resolves YAML 1.1 like go-yaml v2', () => {
    for (const s of ['', '~', 'null', 'y', 'No', 'on', '1', '-1', '0o17', '017', '0b11', '1_000', '1.5', '.5', '1e3', '.inf', '2024-01-02', '2024-1-2 3:04:05']) expect(resolvesToNonString(s), s).toBe(true);
    for (const s of ['abc', '1a', '0x', '+inf', '2024-13-01', '1.2.3', '-', 'yess']) expect(resolvesToNonString(s), s).toBe(false);
  });
  it('picks styles', () => {
    expect(stringStyle('a # b', false)).toBe('single');
    expect(stringStyle('#a', false)).toBe('single');
    expect(stringStyle('a#b', false)).toBe('plain');
    expect(stringStyle(' lead', false)).toBe('single');
    expect(stringStyle('a\nb', true)).toBe('double');
  });
  it('sorts keys like go-yaml', () => {
    const keys = ['b', 'a10', 'a2', '-x', 'A'].sort((x, y) => (goYamlKeyLess(x, y) ? -1 : goYamlKeyLess(y, x) ? 1 : 0));
    expect(keys).toEqual(['-x', 'A', 'a2', 'a10', 'b']);
  });
  it('formats floats like Go', () => {
    expect(goFloat(1234567.5)).toBe('1.2345675e+06');
    expect(goFloat(0.00001)).toBe('1e-05');
    expect(goFloat(0.5)).toBe('0.5');
  });
});

describe('parseYaml', () => {
  it('refuses alias bombs and deep nesting with go-yaml\'s words instead of expanding them', () => {
    const levels = Array.from({ length: 30 }, (_, i) => (i === 0 ? 'l0: &l0 [x, x]' : `l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`));
    expect(parseYaml(levels.join('\n'))).toEqual({ ok: false, message: 'error converting YAML to JSON: yaml: document contains excessive aliasing' });
    expect(parseYaml(`a: b\nc: ${'['.repeat(600)}`)).toEqual({ ok: false, message: 'error converting YAML to JSON: yaml: line 2: exceeded max depth of 512' });
    // A few aliases are fine.
    expect(parseYaml('a: &x [1]\nb: *x')).toEqual({ ok: true, value: { a: [1], b: [1] } });
  });

  it('refuses an alias inside the node it names, and an alias of no anchor, as go-yaml does', () => {
    const fails = (text: string, why: string) => expect(parseYaml(text)).toEqual({ ok: false, message: `error converting YAML to JSON: yaml: ${why}` });
    fails('a: &a [*a]\n', "anchor 'a' value contains itself");
    fails('a: &a\n  b: *a\n', "anchor 'a' value contains itself");
    fails('x: &x [1, &y [*y]]\n', "anchor 'y' value contains itself");
    fails('a: &a [&b [*a]]\n', "anchor 'a' value contains itself");
    // A redefined anchor: the alias names the latest definition before it, its own parent here.
    fails('a: &x 1\nb: &x [*x]\n', "anchor 'x' value contains itself");
    fails('a: *b\n', "unknown anchor 'b' referenced");
    // Composing (unknown anchors) fails before decoding (cycles).
    fails('a: &a [*a]\nb: *zz\n', "unknown anchor 'zz' referenced");
    // Repeated and merged aliases are not cycles.
    expect(parseYaml('b: &b [1]\nc: [*b, *b]\n')).toEqual({ ok: true, value: { b: [1], c: [[1], [1]] } });
    expect(parseYaml('a: &a {k: v}\nb: {<<: *a}\n')).toEqual({ ok: true, value: { a: { k: 'v' }, b: { k: 'v' } } });
  });

  it('reads YAML 1.1 scalars and keeps timestamps as strings', () => {
    expect(parseYaml('a: yes\nb: on\nc: 0777\nd: 2024-01-02\ne: 1:20\nf: ~\n1: x\n')).toEqual({
      ok: true,
      value: { a: true, b: true, c: 511, d: '2024-01-02', e: '1:20', f: null, '1': 'x' },
    });
    expect(parseYaml('a: 1\n---\nb: 2\n')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseYaml('')).toEqual({ ok: true, value: null });
  });
  it('words errors like sigs.k8s.io/yaml', () => {
    const r = parseYaml('a: b: c\n');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^error converting YAML to JSON: yaml: line 1: /);
  });
  it('lists duplicate keys like go-yaml strict mode', () => {
    expect(yamlDuplicateKeyErrors('a: 1\nm:\n  x: 1\n  x: 2\na: 3\n')).toEqual(['line 4: key "x" already set in map', 'line 5: key "a" already set in map']);
    expect(parseYaml('a: 1\na: 2\n')).toEqual({ ok: true, value: { a: 2 } });
  });
});
