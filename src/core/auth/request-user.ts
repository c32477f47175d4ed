// Who is asking, carried to handlers and store hooks. The registry context is shared by every
// request, so each request gets a thin child of it (prototype-linked: the live `closed` flag and
// every other field read through) that also carries the caller and the authorizer in force.
import type { RegistryContext } from '../registry/context';
import type { RbacAuthorizer } from './rbac';
import type { UserInfo } from './rbac/types';

/** The identity of every request when authentication is off: an admin in system:masters. */
export const ADMIN_USER: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

const ACCESS = Symbol('request access');

interface RequestAccess {
  user: UserInfo;
  /** Present only with `authorization: 'RBAC'`. */
  authorizer?: RbacAuthorizer;
}

type WithAccess = RegistryContext & { [ACCESS]?: RequestAccess };

/** A per-request view of `reg` that knows the caller. */
export function withRequestAccess(reg: RegistryContext, user: UserInfo, authorizer?: RbacAuthorizer): RegistryContext {
  const child = Object.create(reg) as WithAccess;
  child[ACCESS] = { user, authorizer };
  return child;
}

/** The caller of the request this context serves; internal writes (controllers, bootstrap) act as admin. */
export function requestUser(reg: RegistryContext): UserInfo {
  return (reg as WithAccess)[ACCESS]?.user ?? ADMIN_USER;
}

/** The RBAC authorizer in force, undefined when every request is allowed. */
export function requestAuthorizer(reg: RegistryContext): RbacAuthorizer | undefined {
  return (reg as WithAccess)[ACCESS]?.authorizer;
}

/**
 * Who each request turned out to be, for the audit log: the user it acts as and, when that user
 * is impersonated, the authenticated requester who asked for it.
 */
const usersByRequest = new WeakMap<object, { user: UserInfo; requester?: UserInfo }>();

export function noteRequestUser(req: object, user: UserInfo, requester?: UserInfo): void {
  usersByRequest.set(req, requester && requester !== user ? { user, requester } : { user });
}

export function userOfRequest(req: object): UserInfo | undefined {
  return usersByRequest.get(req)?.user;
}

/** The authenticated user behind an impersonating request (undefined when nobody was impersonated). */
export function requesterOfRequest(req: object): UserInfo | undefined {
  return usersByRequest.get(req)?.requester;
}
