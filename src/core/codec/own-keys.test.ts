import { describe, expect, it } from 'vitest';
import { assignOwn, lookupTable, ownValue, setOwnKey } from './own-keys';

describe('own keys', () => {
  it('sets __proto__ as an ordinary key, leaving the prototype alone', () => {
    const out: Record<string, unknown> = {};
    setOwnKey(out, '__proto__', { x: '1' });
    setOwnKey(out, 'constructor', 'c');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":"1"},"constructor":"c"}');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('assigns every key as an own key, as Object.assign does not for __proto__', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true}}');
    const out = assignOwn({ kind: 'K' } as Record<string, unknown>, source);
    expect(Object.keys(out)).toEqual(['kind', 'a', '__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('reads only own keys, and tables find only their entries', () => {
    const data = JSON.parse('{"__proto__":"p"}');
    expect(ownValue(data, '__proto__')).toBe('p');
    expect(ownValue({}, '__proto__')).toBeUndefined();
    expect(ownValue({}, 'toString')).toBeUndefined();
    const table = lookupTable({ Ki: 10 });
    expect(table.Ki).toBe(10);
    for (const name of Object.getOwnPropertyNames(Object.prototype)) expect(table[name]).toBeUndefined();
    expect(Object.isFrozen(table)).toBe(true);
  });
});
