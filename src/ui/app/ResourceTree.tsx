// The resource explorer: groups → versions → kinds from discovery, as a keyboard-navigable list of links.
// Discovery is cached for 30 s, but a watch on CustomResourceDefinitions reads it again as soon as
// a CRD is created, deleted or changes its spec (by this page, another tab or kubectl).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { crdDiscoveryTrigger, type ResourceKind } from '../lib/discovery';
import { formatHash, type ViewState } from '../lib/routes';
import { useClient } from './client-context';
import { ErrorBox } from './ErrorBox';
import { queryKeys } from '../lib/query-keys';

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', namespaced: false };

export function ResourceTree({ current, namespace }: { current: ViewState; namespace: string }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const discovery = useQuery({ queryKey: queryKeys.discovery(client.apiBase), queryFn: () => client.discover(), staleTime: 30_000 });
  // Why CRD changes are not followed, shown rather than swallowed (e.g. the identity may not watch CRDs).
  const [watchError, setWatchError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    const changed = crdDiscoveryTrigger();
    setWatchError(null);
    void (async () => {
      try {
        for await (const item of client.watch(CRDS, { signal: controller.signal })) {
          if (changed(item)) void queryClient.invalidateQueries({ queryKey: queryKeys.discovery(client.apiBase) });
        }
      } catch (e) {
        // Without the watch the 30 s cache still applies; say so.
        if (!controller.signal.aborted) setWatchError(e);
      }
    })();
    return () => controller.abort();
  }, [client, queryClient]);
  const [filter, setFilter] = useState('');
  if (discovery.isPending) return <p aria-busy="true">Loading discovery…</p>;
  if (discovery.isError) return <ErrorBox error={discovery.error} />;
  const needle = filter.trim().toLowerCase();
  // While filtering, only groups with a matching kind are listed, and they are open.
  const matches = (r: ResourceKind) => !needle || r.kind.toLowerCase().includes(needle) || r.resource.includes(needle) || r.shortNames.includes(needle);
  return (
    <nav aria-label="Resources" className="resource-tree">
      <input type="search" placeholder="Filter kinds" aria-label="Filter kinds" value={filter} onChange={(e) => setFilter(e.target.value)} />
      {watchError !== null && (
        <p className="note" role="status">
          New custom resources show up within 30 s (watching CustomResourceDefinitions failed: {watchError instanceof Error ? watchError.message : String(watchError)})
        </p>
      )}
      {discovery.data.filter((group) => !needle || group.versions.some((v) => v.resources.some(matches))).map((group) => (
        <details key={group.name || 'core'} open={Boolean(needle) || group.name === '' || group.name === 'apps'}>
          <summary>{group.name || 'core'}</summary>
          {group.versions.map((v) => (
            <ul key={v.version} aria-label={`${group.name || 'core'}/${v.version}`}>
              {v.resources
                .filter(matches)
                .map((r) => {
                  const target: ViewState = { view: 'list', group: r.group, version: r.version, resource: r.resource, ...(r.namespaced && namespace ? { namespace } : {}) };
                  const active = (current.view === 'list' || current.view === 'object') && current.resource === r.resource && current.group === r.group && current.version === r.version;
                  return (
                    <li key={r.resource}>
                      <a href={formatHash(target)} aria-current={active ? 'page' : undefined}>
                        {r.kind}
                      </a>{' '}
                      <small>
                        {v.version}
                        {r.namespaced ? '' : ' · cluster'}
                      </small>
                    </li>
                  );
                })}
            </ul>
          ))}
        </details>
      ))}
    </nav>
  );
}
