// The Forbidden text kube-apiserver writes when authorization denies a request
// (apiserver/pkg/endpoints/handlers/responsewriters/errors.go forbiddenMessage + apierrors.NewForbidden).
import { ApiError, forbidden } from '../../meta/status';
import type { Attributes, UserInfo } from './types';

/** `User "bob" cannot get resource "configmaps" in API group "" in the namespace "default"`. */
export function forbiddenReason(user: UserInfo, attrs: Attributes): string {
  const who = `User ${JSON.stringify(user.username)} cannot ${attrs.verb}`;
  if (attrs.kind === 'nonResource') return `${who} path ${JSON.stringify(attrs.path)}`;
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const what = `${who} resource ${JSON.stringify(resource)} in API group ${JSON.stringify(attrs.apiGroup)}`;
  return attrs.namespace ? `${what} in the namespace ${JSON.stringify(attrs.namespace)}` : `${what} at the cluster scope`;
}

/** The full 403 error; `reason` (the authorizer's deny reason) is appended after a colon when non-empty. */
export function forbiddenError(user: UserInfo, attrs: Attributes, reason = ''): ApiError {
  const why = reason ? `${forbiddenReason(user, attrs)}: ${reason}` : forbiddenReason(user, attrs);
  // Non-resource requests have an empty GroupResource, which NewForbidden renders as `forbidden: ...`.
  if (attrs.kind === 'nonResource') return new ApiError(403, 'Forbidden', `forbidden: ${why}`, {});
  // The qualified resource is the main resource only; the subresource shows in the text.
  return forbidden(attrs.apiGroup, attrs.resource, attrs.name ?? '', why);
}
