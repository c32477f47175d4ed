import { describe, expect, it } from 'vitest';
import { decodeWatchLine, withoutManagedFields } from './informer-decode';
import { stripManagedFields } from './informer-transform';
import type { Obj } from '../registry/objects';

const managedFields = [{ manager: 'kubelet', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: { 'f:status': { 'k:{"type":"Ready"}': { '.': {} } } }, subresource: 'status' }];

/** What the informer kept before: the whole line parsed, then managedFields dropped. */
function parsedThenStripped(line: string): unknown {
  const e = JSON.parse(line) as { type: string; object: Obj };
  return { ...e, object: stripManagedFields(e.object) };
}

const line = (metadata: Obj, type = 'MODIFIED', space?: number) => JSON.stringify({ type, object: { kind: 'Pod', apiVersion: 'v1', metadata, spec: { nodeName: 'n' } } }, null, space);

describe('decodeWatchLine', () => {
  const cases: Record<string, string> = {
    'between other members': line({ name: 'a', ownerReferences: [{ uid: 'u' }], managedFields, labels: { app: 'x' } }),
    'the last member': line({ name: 'a', managedFields }),
    'the first member': line({ managedFields, name: 'a' }),
    'the only member': line({ managedFields }),
    'pretty-printed': line({ name: 'a', managedFields, uid: 'u' }, 'ADDED', 2),
    'a label and an annotation named like it': line({ name: 'a', labels: { managedFields: 'x' }, annotations: { note: '"managedFields":[]' }, managedFields }),
    'no managedFields': line({ name: 'a', annotations: { note: '"managedFields"' } }),
    'an escaped key before it': line({ name: 'a', 'we\u0000ird': 1, managedFields }).replace('we\\u0000ird', 'we\\u0069rd'),
    'managedFields outside metadata only': JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a' }, spec: { managedFields } } }),
    'a deletion': line({ name: 'a', managedFields, deletionTimestamp: '2026-01-01T00:00:00Z' }, 'DELETED'),
  };
  for (const [name, text] of Object.entries(cases)) {
    it(`gives what parsing and stripping gave: ${name}`, () => {
      const e = decodeWatchLine(text);
      // The informer strips what the scanner left (text it does not read is parsed whole).
      expect({ ...e, object: stripManagedFields(e.object) }).toEqual(parsedThenStripped(text));
      if (name !== 'an escaped key before it') expect(Object.keys(e.object.metadata)).not.toContain('managedFields');
    });
  }

  it('cuts the text rather than parsing it whole when it can read it', () => {
    const text = cases['between other members'];
    const cut = withoutManagedFields(text);
    expect(cut.length).toBeLessThan(text.length);
    expect(cut).not.toContain('managedFields');
    expect(withoutManagedFields(cases['no managedFields'])).toBe(cases['no managedFields']);
  });
});
