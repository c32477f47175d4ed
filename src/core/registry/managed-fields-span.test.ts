import { describe, expect, it } from 'vitest';
import { managedFieldsSpan } from './managed-fields-span';

const MANAGED = '[{"manager":"m","operation":"Update","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:a\\"]}":{}}}}}]';

function spanText(text: string): string | undefined {
  const span = managedFieldsSpan(text);
  return span && text.slice(span.start, span.end);
}

describe('managedFieldsSpan', () => {
  it('finds the value after fields holding quotes, brackets and look-alike keys', () => {
    const text = JSON.stringify({
      metadata: {
        name: 'n',
        generation: 3,
        labels: { managedFields: 'x', 'a]}': 'b"\\' },
        annotations: { note: '"managedFields":[1]', path: 'C:\\' },
        ownerReferences: [{ name: 'o', controller: true, blockOwnerDeletion: null }],
        managedFields: JSON.parse(MANAGED),
      },
      spec: { managedFields: 1 },
    });
    expect(spanText(text)).toBe(MANAGED);
  });

  it('works when managedFields is not the last metadata field', () => {
    const text = '{"metadata":{"name":"n","managedFields":[{"a":1}],"zzz":{"b":[2]}},"spec":{}}';
    expect(spanText(text)).toBe('[{"a":1}]');
  });

  it('answers undefined without managedFields or for text not in stored form', () => {
    expect(managedFieldsSpan('{"metadata":{"name":"n"},"spec":{"managedFields":[]}}')).toBeUndefined();
    expect(managedFieldsSpan('{"metadata":{},"spec":{}}')).toBeUndefined();
    expect(managedFieldsSpan('{"spec":{},"metadata":{"managedFields":[]}}')).toBeUndefined();
    expect(managedFieldsSpan('{"metadata":{ "managedFields":[]}}')).toBeUndefined();
    expect(managedFieldsSpan('{"metadata":{"name":"unterminated')).toBeUndefined();
    expect(managedFieldsSpan('{"metadata":{"managedFields":[{"a":"b"}')).toBeUndefined();
  });
});
