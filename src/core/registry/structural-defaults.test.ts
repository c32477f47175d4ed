import { describe, expect, it } from 'vitest';
import { defaultCustomObject } from './structural-defaults';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', nullable: true, default: 'auto' },
        tags: { type: 'array', items: { type: 'string' } },
        limits: { type: 'object', default: {}, properties: { cpu: { type: 'string', default: '100m' } } },
        ports: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, protocol: { type: 'string', default: 'TCP' } } } },
        labels: { type: 'object', additionalProperties: { type: 'string', default: 'x' } },
        note: { type: 'string', nullable: true },
      },
    },
  },
};

const run = (obj: Record<string, unknown>) => {
  defaultCustomObject(obj, schema);
  return obj;
};

describe('defaultCustomObject', () => {
  it('fills missing properties where their parent exists, and defaults inside defaults', () => {
    expect(run({ spec: {} })).toEqual({ spec: { replicas: 1, mode: 'auto', limits: { cpu: '100m' } } });
    // No spec, no spec defaults.
    expect(run({ metadata: { name: 'a' } })).toEqual({ metadata: { name: 'a' } });
  });

  it('keeps values that are set, and defaults array items and map values', () => {
    const out = run({ spec: { replicas: 3, limits: { cpu: '1' }, ports: [{ name: 'a' }, { name: 'b', protocol: 'UDP' }], labels: { k: null } } });
    expect(out.spec).toEqual({ replicas: 3, mode: 'auto', limits: { cpu: '1' }, ports: [{ name: 'a', protocol: 'TCP' }, { name: 'b', protocol: 'UDP' }], labels: { k: 'x' } });
  });

  it('drops non-nullable nulls without a default, defaults non-nullable nulls with one, keeps nullable nulls', () => {
    const out = run({ spec: { replicas: null, tags: null, note: null, mode: null } });
    expect(out.spec).toEqual({ replicas: 1, note: null, mode: null, limits: { cpu: '100m' } });
  });

  it('gives every object its own copy of a default', () => {
    const a = run({ spec: {} }) as { spec: { limits: { cpu: string } } };
    a.spec.limits.cpu = 'changed';
    expect((run({ spec: {} }) as { spec: { limits: unknown } }).spec.limits).toEqual({ cpu: '100m' });
  });
});
