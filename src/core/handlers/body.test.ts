import { describe, expect, it } from 'vitest';
import { scanMembers } from './body';

// The fast body decoder counts members (colons outside strings) to find duplicate keys; a count
// that is off by the one a duplicate removes would hide that duplicate.
describe('scanMembers', () => {
  it('counts colons outside strings only', () => {
    expect(scanMembers('{"a":"b:c","d":{"e":"f"}}')).toEqual({ members: 3, tooDeep: false });
  });

  it('sees escaped quotes as part of the string, and an escaped backslash as closing it', () => {
    expect(scanMembers(String.raw`{"a":"x\\","b":"\":\"d\\\"","e":"f:g"}`)).toEqual({ members: 3, tooDeep: false });
    expect(scanMembers(String.raw`{"k\":":"\\\\","k2":"\\\":"}`)).toEqual({ members: 2, tooDeep: false });
  });

  it('counts to the end of an unterminated string without throwing', () => {
    expect(scanMembers('{"a":"b')).toEqual({ members: 1, tooDeep: false });
  });

  it('reports nesting deeper than the scanner allows', () => {
    expect(scanMembers(`${'['.repeat(10_001)}${']'.repeat(10_001)}`).tooDeep).toBe(true);
    expect(scanMembers('[[["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["]]]').tooDeep).toBe(false);
  });
});
