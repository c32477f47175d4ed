// The resource explorer: groups → versions → kinds from discovery, as a keyboard-navigable list of links.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ResourceKind } from '../lib/discovery';
import { formatHash, type ViewState } from '../lib/routes';
import { useClient } from './client-context';
import { ErrorBox } from './ErrorBox';

export function ResourceTree({ current, namespace }: { current: ViewState; namespace: string }) {
  const client = useClient();
  const discovery = useQuery({ queryKey: ['discovery', client.apiBase], queryFn: () => client.discover(), staleTime: 30_000 });
  const [filter, setFilter] = useState('');
  if (discovery.isPending) return <p aria-busy="true">Loading discovery…</p>;
  if (discovery.isError) return <ErrorBox error={discovery.error} />;
  const needle = filter.trim().toLowerCase();
  // While filtering, only groups with a matching kind are listed, and they are open.
  const matches = (r: ResourceKind) => !needle || r.kind.toLowerCase().includes(needle) || r.resource.includes(needle) || r.shortNames.includes(needle);
  return (
    <nav aria-label="Resources" className="resource-tree">
      <input type="search" placeholder="Filter kinds" aria-label="Filter kinds" value={filter} onChange={(e) => setFilter(e.target.value)} />
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
