import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { isPlainSafe, pathKey, yamlWithLines } from './yaml-lines';

describe('yamlWithLines', () => {
  it('writes YAML that reads back as the same value, for awkward strings too', () => {
    const value = {
      a: '1', b: 'true', c: 'yes', d: '', e: ' lead', f: 'trail ', g: 'x: y', h: 'x #y', i: 'x:', j: '-', k: '--flag=1', l: 'nginx:1.25',
      m: '2026-01-02T03:04:05Z', n: '0x1F', o: '1e3', p: '.inf', q: '@at', r: 'multi\nline\n', s: 'no newline\nat end', t: 'keep\n\n', u: ' x\ny', v: '日本', w: 'tab\there',
      nums: [1, 2.5, -3, 0], bools: [true, false], nul: null, empty: {}, none: [], nested: [{ name: 'c', args: ['--a', '-b'] }, [1, [2]]],
      'key with: colon': 1, '1': 'numeric key',
    };
    const { text } = yamlWithLines(value);
    expect(parse(text)).toEqual(value);
  });

  it('lays out as kubectl does and records every field\'s lines', () => {
    const value = { apiVersion: 'v1', data: { a: '1', script: 'echo one\necho two\n' }, spec: { containers: [{ name: 'c', image: 'nginx' }], empty: [] } };
    const { text, spans } = yamlWithLines(value);
    expect(text).toBe('apiVersion: v1\ndata:\n  a: "1"\n  script: |\n    echo one\n    echo two\nspec:\n  containers:\n  - name: c\n    image: nginx\n  empty: []\n');
    expect(spans.get(pathKey(['data']))).toEqual([2, 6]);
    expect(spans.get(pathKey(['data', 'script']))).toEqual([4, 6]);
    expect(spans.get(pathKey(['spec', 'containers', 0]))).toEqual([9, 10]);
    expect(spans.get(pathKey(['spec', 'containers', 0, 'image']))).toEqual([10, 10]);
    expect(spans.get(pathKey(['spec', 'empty']))).toEqual([11, 11]);
  });

  it('keeps plain only what YAML reads back as that string', () => {
    for (const s of ['web', 'nginx:1.25', 'example.com/b', '--port=80', 'a b']) expect(isPlainSafe(s)).toBe(true);
    for (const s of ['1', '1.5', 'true', 'Null', '~', '', ' a', 'a: b', '- a', '#x', '0o17']) expect(isPlainSafe(s)).toBe(false);
  });
});
