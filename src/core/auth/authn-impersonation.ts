// Impersonation (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go): `Impersonate-User`,
// `Impersonate-Group`, `Impersonate-Uid` and `Impersonate-Extra-<key>` headers make the request
// act as another user, each one authorized first with the `impersonate` verb.
import type { ApiRequest } from '../meta/types';
import type { Attributes, Decision, UserInfo } from './rbac/types';
import { parseServiceAccountUsername } from './rbac/subjects';
import { forbiddenError } from './rbac/messages';
import { internalError } from '../meta/status';
import { setOwnKey } from '../codec/own-keys';

const EXTRA_PREFIX = 'impersonate-extra-';
const AUTHN_GROUP = 'authentication.k8s.io';

/** Repeated headers reach the core joined with ", " (see ApiRequest.headers). */
function headerValues(v: string | undefined): string[] {
  if (v === undefined) return [];
  return v.split(', ').filter((s) => s !== '');
}

function decodeExtraKey(k: string): string {
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
}

/**
 * The user the request acts as: `requester` itself when no impersonation header is present,
 * else the impersonated user, after checking `impersonate` for every part. Throws 403/500.
 */
export function impersonate(req: ApiRequest, requester: UserInfo, authorize: (u: UserInfo, a: Attributes) => Decision): UserInfo {
  const h = req.headers;
  const username = h['impersonate-user'];
  const groups = headerValues(h['impersonate-group']);
  const uid = h['impersonate-uid'];
  const extra: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(h)) {
    if (name.startsWith(EXTRA_PREFIX)) setOwnKey(extra, decodeExtraKey(name.slice(EXTRA_PREFIX.length)), headerValues(value));
  }
  const extraKeys = Object.keys(extra);
  if (username === undefined) {
    if (groups.length || uid !== undefined || extraKeys.length) throw internalError('requested impersonation without impersonating a user');
    return requester;
  }
  const check = (attrs: Attributes) => {
    const d = authorize(requester, attrs);
    if (!d.allowed) throw forbiddenError(requester, attrs, d.reason);
  };
  const sa = parseServiceAccountUsername(username);
  if (sa) check({ kind: 'resource', verb: 'impersonate', apiGroup: '', resource: 'serviceaccounts', namespace: sa.namespace, name: sa.name });
  else check({ kind: 'resource', verb: 'impersonate', apiGroup: '', resource: 'users', name: username });
  for (const g of groups) check({ kind: 'resource', verb: 'impersonate', apiGroup: '', resource: 'groups', name: g });
  if (uid !== undefined) check({ kind: 'resource', verb: 'impersonate', apiGroup: AUTHN_GROUP, resource: 'uids', name: uid });
  for (const k of extraKeys) {
    for (const v of extra[k]) check({ kind: 'resource', verb: 'impersonate', apiGroup: AUTHN_GROUP, resource: 'userextras', subresource: k, name: v });
  }
  let finalGroups = groups;
  // A service account impersonated without groups gets its service-account groups.
  if (sa && !groups.length) finalGroups = ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`];
  const marker = username === 'system:anonymous' ? 'system:unauthenticated' : 'system:authenticated';
  if (!finalGroups.includes(marker)) finalGroups = [...finalGroups, marker];
  const user: UserInfo = { username, groups: finalGroups };
  if (uid !== undefined) user.uid = uid;
  if (extraKeys.length) user.extra = extra;
  return user;
}
