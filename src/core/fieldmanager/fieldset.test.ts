import { describe, expect, it } from 'vitest';
import { FieldSet } from './fieldset';
import { fromFieldsV1, toFieldsV1 } from './fieldsv1';
import { fieldElement as f, indexElement, keyElement, parsePathElement, pathString, valueElement } from './pathelement';

const p = (...names: string[]) => names.map(f);
const show = (s: FieldSet) => s.paths().map(pathString);

describe('FieldSet operations', () => {
  const a = FieldSet.of(p('spec'), p('spec', 'replicas'), p('spec', 'paused'));
  const b = FieldSet.of(p('spec', 'replicas'), p('metadata', 'labels'));

  it('union keeps members and children of both', () => {
    expect(show(a.union(b))).toEqual(['.spec', '.metadata.labels', '.spec.paused', '.spec.replicas']);
  });
  it('intersection keeps common members only (a parent is not implied by its child)', () => {
    expect(show(a.intersection(b))).toEqual(['.spec.replicas']);
    expect(FieldSet.of(p('spec')).intersection(FieldSet.of(p('spec', 'replicas'))).isEmpty()).toBe(true);
  });
  it('difference removes members level by level, recursiveDifference removes subtrees', () => {
    expect(show(a.difference(FieldSet.of(p('spec'))))).toEqual(['.spec.paused', '.spec.replicas']);
    expect(show(a.recursiveDifference(FieldSet.of(p('spec'))))).toEqual([]);
    expect(show(a.recursiveDifference(b))).toEqual(['.spec', '.spec.paused']);
  });
  it('has, withPrefix and equals', () => {
    expect(a.has(p('spec', 'replicas'))).toBe(true);
    expect(b.has(p('metadata'))).toBe(false);
    expect(show(a.withPrefix(f('spec')))).toEqual(['.paused', '.replicas']);
    expect(a.equals(FieldSet.of(p('spec', 'paused'), p('spec', 'replicas'), p('spec')))).toBe(true);
    expect(a.equals(b)).toBe(false);
  });
});

describe('fieldsV1', () => {
  it('writes `.` first, then fields, keys (by value order, numbers numerically), values, indexes', () => {
    const s = new FieldSet();
    const ports = [f('spec'), f('ports')];
    s.insert([...ports, keyElement([['protocol', 'TCP'], ['port', 443]])]);
    s.insert([...ports, keyElement([['port', 80], ['protocol', 'TCP']]), f('port')]);
    s.insert([...ports, keyElement([['port', 80], ['protocol', 'TCP']])]);
    s.insert([f('metadata'), f('finalizers'), valueElement('b')]);
    s.insert([f('metadata'), f('finalizers'), valueElement('a<')]);
    s.insert([f('spec'), f('args'), indexElement(10)]);
    s.insert([f('spec'), f('args'), indexElement(2)]);
    s.insert([f('spec')]);
    const json = JSON.stringify(toFieldsV1(s));
    expect(json).toBe(
      '{"f:metadata":{"f:finalizers":{"v:\\"a\\\\u003c\\"":{},"v:\\"b\\"":{}}},' +
        '"f:spec":{".":{},"f:args":{"i:2":{},"i:10":{}},"f:ports":{"k:{\\"port\\":80,\\"protocol\\":\\"TCP\\"}":{".":{},"f:port":{}},"k:{\\"port\\":443,\\"protocol\\":\\"TCP\\"}":{}}}}',
    );
    expect(fromFieldsV1(JSON.parse(json)).equals(s)).toBe(true);
  });
  it('parses path elements and prints them as kube does', () => {
    expect(pathString([f('spec'), parsePathElement('k:{"name":"c"}'), f('image')])).toBe('.spec[name="c"].image');
    expect(pathString([parsePathElement('v:"x"'), parsePathElement('i:3')])).toBe('[="x"][3]');
    expect(pathString([parsePathElement('k:{"protocol":"TCP","port":80}')])).toBe('[port=80,protocol="TCP"]');
    expect(() => parsePathElement('x:1')).toThrow(/unknown path element/);
    expect(() => fromFieldsV1({ 'f:a': 1 })).toThrow();
  });
});
