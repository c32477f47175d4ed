import { describe, expect, it } from 'vitest';
import { fromStored, toStored } from './stored-value';

describe('objects stored in etcd', () => {
  const object = (rev: number, annotation = 'x') => JSON.stringify({ metadata: { name: 'a', resourceVersion: String(rev), annotations: { note: annotation } }, data: { k: 'v' } });

  it('puts the mod revision where the resourceVersion was encoded', () => {
    const stored = toStored((rev) => object(rev));
    expect(fromStored(stored, 42)).toBe(object(42));
    expect(fromStored(stored, 123456789)).toBe(object(123456789));
  });

  it('finds the revision when another field holds the stand-in too', () => {
    const stored = toStored((rev) => object(rev, '9007199254740991'));
    expect(fromStored(stored, 7)).toBe(object(7, '9007199254740991'));
    // The annotation comes after the resourceVersion here; before it too:
    const first = (rev: number) => JSON.stringify({ a: '9007199254740991', metadata: { resourceVersion: String(rev) } });
    expect(fromStored(toStored(first), 8)).toBe(first(8));
  });

  it('keeps a text that does not carry the revision as it is', () => {
    expect(fromStored(toStored(() => '{"fixed":true}'), 5)).toBe('{"fixed":true}');
  });

  it('refuses a value without the header', () => {
    expect(() => fromStored('{"a":1}', 1)).toThrow(/not a kube-playground object/);
  });
});
