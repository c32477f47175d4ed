// Every TanStack Query key the page uses, built here and nowhere else. A key is an array from the
// broad to the narrow (kind of data, API base, resource, then the view's own parameters), so a
// prefix of a key names a whole family: invalidating `tableKeys.resource(...)` refreshes every
// page, selector and size of that resource's list, and `isHostSettings` tells the one key that a
// restart of the API must not throw away (the settings the restart itself applied).
import type { QueryKey } from '@tanstack/react-query';
import type { ResourceRef } from './api-paths';

type Resource = Pick<ResourceRef, 'group' | 'version' | 'resource'>;
const resourceParts = (r: Resource) => [r.group, r.version, r.resource] as const;

export const queryKeys = {
  discovery: (apiBase: string) => ['discovery', apiBase] as const,
  health: (apiBase: string, endpoint: 'livez' | 'readyz') => ['health', apiBase, endpoint] as const,
  audit: (apiBase: string) => ['audit', apiBase] as const,
  hostSettings: (apiBase: string) => ['host-settings', apiBase] as const,
  object: (apiBase: string, target: Resource, namespace: string | undefined, name: string) => ['object', apiBase, ...resourceParts(target), namespace ?? '', name] as const,
  timeline: (adminBase: string, uid: string, resourceVersion: string) => ['timeline', adminBase, uid, resourceVersion] as const,
  table: {
    /** Every page of a resource's list (any namespace, selector, size). */
    resource: (apiBase: string, target: Resource) => ['table', apiBase, ...resourceParts(target)] as const,
    page: (apiBase: string, target: Resource, view: { namespace?: string; labelSelector: string; limit: number; pageIndex: number }) =>
      [...queryKeys.table.resource(apiBase, target), view.namespace ?? '', view.labelSelector, view.limit, view.pageIndex] as const,
  },
};

/** True for the host settings' key: kept when a restart of the API invalidates everything else. */
export const isHostSettings = (key: QueryKey): boolean => key[0] === queryKeys.hostSettings('')[0];
