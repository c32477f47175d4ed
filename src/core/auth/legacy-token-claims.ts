// The legacy service-account token: the JWT kube-controller-manager's tokens controller (v1.23)
// puts in a `kubernetes.io/service-account-token` Secret. It has no audience and no expiry; it is
// valid as long as its Secret and its ServiceAccount are (see legacy-token-validator.ts).

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';

const NS_CLAIM = 'kubernetes.io/serviceaccount/namespace';
const SECRET_CLAIM = 'kubernetes.io/serviceaccount/secret.name';
const SA_NAME_CLAIM = 'kubernetes.io/serviceaccount/service-account.name';
const SA_UID_CLAIM = 'kubernetes.io/serviceaccount/service-account.uid';
const USER_PREFIX = 'system:serviceaccount:';

/** Who a legacy token names. */
export interface LegacyIdentity {
  namespace: string;
  secretName: string;
  serviceAccountName: string;
  serviceAccountUid: string;
}

/**
 * The claims, in the order kube's signer writes them: go-jose merges the public and private
 * claims into one map, and Go encodes maps with sorted keys.
 */
export function legacyClaims(id: LegacyIdentity): Record<string, string> {
  return {
    iss: LEGACY_ISSUER,
    [NS_CLAIM]: id.namespace,
    [SECRET_CLAIM]: id.secretName,
    [SA_NAME_CLAIM]: id.serviceAccountName,
    [SA_UID_CLAIM]: id.serviceAccountUid,
    sub: `${USER_PREFIX}${id.namespace}:${id.serviceAccountName}`,
  };
}

/** The legacy validator's claim checks (before any lookup), with its error wording. */
export function legacyIdentityOf(claims: Record<string, unknown>): LegacyIdentity | { error: string } {
  const text = (k: string) => (typeof claims[k] === 'string' ? (claims[k] as string) : '');
  const sub = text('sub');
  if (!sub) return { error: 'sub claim is missing' };
  const id: LegacyIdentity = { namespace: text(NS_CLAIM), secretName: text(SECRET_CLAIM), serviceAccountName: text(SA_NAME_CLAIM), serviceAccountUid: text(SA_UID_CLAIM) };
  if (!id.namespace) return { error: 'namespace claim is missing' };
  if (!id.secretName) return { error: 'secretName claim is missing' };
  if (!id.serviceAccountName) return { error: 'serviceAccountName claim is missing' };
  if (!id.serviceAccountUid) return { error: 'serviceAccountUID claim is missing' };
  const parts = sub.startsWith(USER_PREFIX) ? sub.slice(USER_PREFIX.length).split(':') : [];
  if (parts.length !== 2 || parts[0] !== id.namespace || parts[1] !== id.serviceAccountName) return { error: 'sub claim is invalid' };
  return id;
}

/** Secret data is base64 of bytes; the values here (JWT, namespace, PEM) are text. */
export function textToBase64(text: string): string {
  let s = '';
  for (const b of new TextEncoder().encode(text)) s += String.fromCharCode(b);
  return btoa(s);
}

export function base64ToText(data: string): string | undefined {
  try {
    const bin = atob(data);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}
