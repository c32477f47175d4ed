// The access path of one request, in kube-apiserver's filter order: authentication →
// impersonation → authorization. The result is the per-request registry context that carries
// the caller to handlers and store hooks (request-user.ts).
import type { ApiRequest } from '../meta/types';
import type { RegistryContext } from '../registry/context';
import type { RequestInfo } from '../meta/requestinfo';
import { createAuthenticator, type AuthenticationOptions } from './authn';
import { impersonate } from './authn-impersonation';
import { RbacAuthorizer, type RbacObject } from './rbac';
import { nodeAuthorizerObjects } from './rbac/bootstrap-components';
import { forbiddenError } from './rbac/messages';
import type { Attributes, Decision, UserInfo } from './rbac/types';
import { requestAttributes } from './request-attributes';
import { noteRequestUser, withRequestAccess } from './request-user';

export type AuthorizationMode = 'AlwaysAllow' | 'RBAC';

let nodeAuthz: RbacAuthorizer | undefined;
/** The Node authorizer's grant (the system:node role for group system:nodes), built once. */
function nodeAuthorizer(): RbacAuthorizer {
  nodeAuthz ??= new RbacAuthorizer(nodeAuthorizerObjects() as RbacObject[]);
  return nodeAuthz;
}

export interface AccessControl {
  /** Present with RBAC; reviews and escalation checks consult it. */
  readonly authorizer?: RbacAuthorizer;
  authorize(user: UserInfo, attrs: Attributes): Decision;
  /** Throws the 401/403/500 Status error when the request may not proceed. */
  admit(req: ApiRequest, info: RequestInfo, reg: RegistryContext): RegistryContext;
}

const ALLOW: Decision = { allowed: true, reason: '' };

export function createAccessControl(authentication: AuthenticationOptions | undefined, authorizer: RbacAuthorizer | undefined): AccessControl {
  const authenticate = createAuthenticator(authentication);
  const authorize = (user: UserInfo, attrs: Attributes): Decision => (authorizer ? authorizer.authorize(user, attrs) : ALLOW);
  return {
    authorizer,
    authorize,
    admit(req, info, reg) {
      if (req.internalUser) {
        // An in-process component is authenticated by construction, and authorized as kube
        // would: nodes by the Node authorizer, the others by their bootstrap roles.
        const user: UserInfo = { username: req.internalUser.username, groups: [...req.internalUser.groups] };
        noteRequestUser(req, user);
        if (authorizer) {
          const attrs = requestAttributes(info);
          const d = user.groups.includes('system:nodes') ? nodeAuthorizer().authorize(user, attrs) : authorizer.authorize(user, attrs);
          if (!d.allowed) throw forbiddenError(user, attrs, d.reason);
        }
        return withRequestAccess(reg, user, authorizer);
      }
      // The default playground (no authentication, no RBAC, no impersonation) skips all of it.
      if (!authentication && !authorizer && req.headers['impersonate-user'] === undefined) return reg;
      const requester = authenticate(req);
      const user = impersonate(req, requester, authorize);
      // Noted before authorization so a Forbidden request is audited with its user too.
      noteRequestUser(req, user, requester);
      if (authorizer) {
        // A dry-run request is authorized exactly as the real one: same verb, same attributes.
        const attrs = requestAttributes(info);
        const d = authorizer.authorize(user, attrs);
        if (!d.allowed) throw forbiddenError(user, attrs, d.reason);
      }
      return withRequestAccess(reg, user, authorizer);
    },
  };
}
