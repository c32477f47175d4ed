import { describe, expect, it } from 'vitest';
import { equalIgnoreHash } from './deployment-util';
import { milli } from './pod-fit';

const template = (labels: Record<string, string>, image = 'nginx') => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image }] } });

describe('equalIgnoreHash', () => {
  it('ignores the pod-template-hash label and key order, and tells different templates apart on every call', () => {
    const rsTemplate = template({ 'pod-template-hash': 'abc', app: 'web' });
    const dTemplate = { spec: { containers: [{ image: 'nginx', name: 'web' }] }, metadata: { labels: { app: 'web' } } };
    // Asked repeatedly with the same objects (the answer is kept per object), the same answers.
    for (let i = 0; i < 3; i++) {
      expect(equalIgnoreHash(rsTemplate, dTemplate)).toBe(true);
      expect(equalIgnoreHash(rsTemplate, template({ app: 'web' }, 'httpd'))).toBe(false);
      expect(equalIgnoreHash(template({ 'pod-template-hash': 'abc' }), template({}))).toBe(true);
    }
    expect(equalIgnoreHash(undefined as never, undefined as never)).toBe(true);
    expect(equalIgnoreHash(undefined as never, rsTemplate)).toBe(false);
  });
});

describe('milli', () => {
  it('reads quantities in thousandths, the same whether the text was read before or not', () => {
    for (let i = 0; i < 2; i++) {
      expect(milli('100m')).toBe(100);
      expect(milli('2')).toBe(2000);
      expect(milli('1Ki')).toBe(1024000);
      expect(milli(3)).toBe(3000);
      expect(milli(undefined)).toBe(0);
      expect(milli('bogus')).toBe(0);
    }
  });
});
