import { describe, expect, it } from 'vitest';
import { managedFieldsText, rememberManagedFieldsText } from './managed-text';

describe('managedFieldsText', () => {
  it('finds the text of a list remembered before other creates remembered theirs', () => {
    // Creates in flight interleave: each tracks its fields, awaits admission, then writes its text.
    const lists = Array.from({ length: 20 }, (_, i) => [{ manager: `m${i}` }]);
    lists.forEach((l, i) => rememberManagedFieldsText(l, `text-${i}`));
    expect(lists.map((l) => managedFieldsText(l))).toEqual(lists.map((_, i) => `text-${i}`));
  });

  it('knows nothing of a copy, of undefined, or of a list pushed out by 64 newer ones', () => {
    const first = [{ manager: 'first' }];
    rememberManagedFieldsText(first, 'first');
    expect(managedFieldsText([...first])).toBeUndefined();
    expect(managedFieldsText(undefined)).toBeUndefined();
    for (let i = 0; i < 63; i++) rememberManagedFieldsText([{ manager: String(i) }], String(i));
    expect(managedFieldsText(first)).toBe('first');
    rememberManagedFieldsText([{ manager: 'one more' }], 'one more');
    expect(managedFieldsText(first)).toBeUndefined();
  });

  it('answers the newest text when a list is remembered again', () => {
    const list = [{ manager: 'm' }];
    rememberManagedFieldsText(list, 'old');
    rememberManagedFieldsText(list, 'new');
    expect(managedFieldsText(list)).toBe('new');
  });
});
