// Subject keys: bindings are indexed by the subjects they name, and a user is looked up by the
// keys it can match, so a request only visits bindings that could apply to it.
import type { Subject, UserInfo } from './types';

const SA_PREFIX = 'system:serviceaccount:';

/** `system:serviceaccount:<ns>:<name>` → {namespace, name}; undefined for other users. */
export function parseServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SA_PREFIX)) return undefined;
  const rest = username.slice(SA_PREFIX.length);
  const i = rest.indexOf(':');
  if (i <= 0 || i === rest.length - 1 || rest.indexOf(':', i + 1) !== -1) return undefined;
  return { namespace: rest.slice(0, i), name: rest.slice(i + 1) };
}

/** The UserInfo the service-account token authenticator produces. */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    username: `${SA_PREFIX}${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

/**
 * The index key of a subject. A ServiceAccount without a namespace defaults to the
 * binding's namespace (RoleBindings only; in a ClusterRoleBinding it matches nobody → undefined).
 */
export function subjectKey(s: Subject, bindingNamespace: string): string | undefined {
  switch (s.kind) {
    case 'User':
      return `u:${s.name}`;
    case 'Group':
      return `g:${s.name}`;
    case 'ServiceAccount': {
      const ns = s.namespace || bindingNamespace;
      return ns ? `sa:${ns}/${s.name}` : undefined;
    }
    default:
      return undefined;
  }
}

/** Every key a user can match: its name, each group, and its service account if it is one. */
export function userKeys(user: UserInfo): string[] {
  const keys = [`u:${user.username}`];
  for (const g of user.groups) keys.push(`g:${g}`);
  const sa = parseServiceAccountUsername(user.username);
  if (sa) keys.push(`sa:${sa.namespace}/${sa.name}`);
  return keys;
}

/** How kube names a subject in an allow reason: `User "bob"`, `ServiceAccount "sa/ns"`. */
export function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `${s.kind} ${JSON.stringify(`${s.name}/${s.namespace || bindingNamespace}`)}`;
  return `${s.kind} ${JSON.stringify(s.name)}`;
}
