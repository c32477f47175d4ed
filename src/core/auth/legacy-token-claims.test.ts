import { describe, expect, it } from 'vitest';
import { base64ToText, legacyClaims, legacyIdentityOf, textToBase64 } from './legacy-token-claims';

const id = { namespace: 'ns', secretName: 'robot-token-abcde', serviceAccountName: 'robot', serviceAccountUid: 'u-1' };

describe('legacy token claims', () => {
  it('are written in Go’s sorted key order and read back', () => {
    const claims = legacyClaims(id);
    expect(JSON.stringify(claims)).toBe(
      '{"iss":"kubernetes/serviceaccount","kubernetes.io/serviceaccount/namespace":"ns","kubernetes.io/serviceaccount/secret.name":"robot-token-abcde",' +
        '"kubernetes.io/serviceaccount/service-account.name":"robot","kubernetes.io/serviceaccount/service-account.uid":"u-1","sub":"system:serviceaccount:ns:robot"}',
    );
    expect(legacyIdentityOf(claims)).toEqual(id);
  });

  it('are checked with the legacy validator’s wording', () => {
    const without = (k: string) => {
      const c: Record<string, unknown> = { ...legacyClaims(id) };
      delete c[k];
      return legacyIdentityOf(c);
    };
    expect(without('sub')).toEqual({ error: 'sub claim is missing' });
    expect(without('kubernetes.io/serviceaccount/namespace')).toEqual({ error: 'namespace claim is missing' });
    expect(without('kubernetes.io/serviceaccount/secret.name')).toEqual({ error: 'secretName claim is missing' });
    expect(without('kubernetes.io/serviceaccount/service-account.name')).toEqual({ error: 'serviceAccountName claim is missing' });
    expect(without('kubernetes.io/serviceaccount/service-account.uid')).toEqual({ error: 'serviceAccountUID claim is missing' });
    expect(legacyIdentityOf({ ...legacyClaims(id), sub: 'system:serviceaccount:other:robot' })).toEqual({ error: 'sub claim is invalid' });
    expect(legacyIdentityOf({ ...legacyClaims(id), sub: 'robot' })).toEqual({ error: 'sub claim is invalid' });
  });

  it('encodes Secret data as base64 of UTF-8', () => {
    expect(textToBase64('ns')).toBe('bnM=');
    expect(base64ToText(textToBase64('é-PEM'))).toBe('é-PEM');
    expect(base64ToText('not base64!')).toBeUndefined();
  });
});
