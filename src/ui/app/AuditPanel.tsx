// The audit log of the browser host: the recent audit.k8s.io/v1 events of the running API server
// (newest first), with who asked, what, the answer's code and the annotations (deprecated API
// versions are marked there). The server keeps a bounded ring that starts empty at each restart.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { readAuditEvents } from '../../hosts/sw/page/page-client';
import { ErrorBox } from './ErrorBox';
import { queryKeys } from '../lib/query-keys';

export function AuditPanel({ apiBase }: { apiBase: string }) {
  const [filter, setFilter] = useState('');
  const events = useQuery({ queryKey: queryKeys.audit(apiBase), queryFn: () => readAuditEvents(apiBase, 300), refetchInterval: 5_000 });
  const needle = filter.trim().toLowerCase();
  const rows = (events.data ?? [])
    .slice()
    .reverse()
    .filter((e) => !needle || `${e.user.username} ${e.impersonatedUser?.username ?? ''} ${e.verb} ${e.requestURI} ${e.responseStatus?.code ?? ''}`.toLowerCase().includes(needle));
  return (
    <section aria-label="Audit" className="audit">
      <div className="toolbar">
        <h2>Audit events</h2>
        <input type="search" aria-label="Filter events" placeholder="user, verb, path or code" value={filter} onChange={(e) => setFilter(e.target.value)} />
        <button type="button" onClick={() => void events.refetch()}>
          Refresh
        </button>
        {events.isFetching && <small aria-busy="true">loading…</small>}
      </div>
      <ErrorBox error={events.error} />
      <div className="table-scroll audit-table">
        <table>
          <thead>
            <tr>
              <th>TIME</th>
              <th>USER</th>
              <th>VERB</th>
              <th>REQUEST</th>
              <th>CODE</th>
              <th>ANNOTATIONS</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={`${e.auditID}-${e.stage}`}>
                <td>{e.stageTimestamp.slice(11, 23)}</td>
                <td title={e.user.groups.join(', ')}>
                  {e.user.username}
                  {e.impersonatedUser && <span title={e.impersonatedUser.groups.join(', ')}> as {e.impersonatedUser.username}</span>}
                </td>
                <td>{e.verb}</td>
                <td title={e.requestURI}>{e.requestURI}</td>
                <td className={(e.responseStatus?.code ?? 0) >= 400 ? 'bad' : undefined}>{e.responseStatus?.code ?? e.stage}</td>
                <td title={JSON.stringify(e.annotations ?? {})}>{Object.entries(e.annotations ?? {}).map(([k, v]) => `${k}=${v}`).join(' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        {rows.length} of {events.data?.length ?? 0} events shown.
      </p>
    </section>
  );
}
