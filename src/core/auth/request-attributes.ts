// Authorization attributes of an HTTP request (apiserver's GetAuthorizerAttributes): resource
// requests by verb/group/resource/subresource/namespace/name, everything else by path.
import type { RequestInfo } from '../meta/requestinfo';
import type { Attributes } from './rbac/types';

export function requestAttributes(info: RequestInfo): Attributes {
  if (!info.isResourceRequest) return { kind: 'nonResource', verb: info.verb, path: info.path };
  // A namespace object lives "in itself": `get namespaces foo` is asked in the namespace foo.
  const namespace = info.resource === 'namespaces' && !info.namespace && info.name ? info.name : info.namespace;
  return {
    kind: 'resource',
    verb: info.verb,
    apiGroup: info.group,
    apiVersion: info.version,
    resource: info.resource,
    subresource: info.subresource || undefined,
    namespace: namespace || undefined,
    name: info.name || undefined,
  };
}
