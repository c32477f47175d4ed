// A collection as the server's Table (kubectl's columns), paged with the real mechanics in view:
// limit, the continue token, remainingItemCount and the list's resourceVersion; a label selector;
// live refresh from a watch (one refresh per batch of events) and the event log beside it.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { apiVersionOf, type ResourceRef } from '../lib/api-paths';
import { formatHash, LIST_LIMITS, type ViewState } from '../lib/routes';
import { useClient } from './client-context';
import { queryKeys } from '../lib/query-keys';
import { ErrorBox } from './ErrorBox';
import { describeError } from '../lib/api-errors';
import { EventLog } from './EventLog';
import { NewObjectForm } from './NewObjectForm';
import { useLiveList } from './use-live-list';
import { VirtualRows } from './VirtualRows';

export interface TableViewProps {
  target: ResourceRef;
  namespace?: string;
  labelSelector: string;
  onLabelSelector(selector: string): void;
  /** Page size, and which page (0 = the first): kept in the URL by the caller, so a page can be linked. */
  limit: number;
  pageIndex: number;
  onPaging(paging: { limit: number; pageIndex: number }): void;
}

export function TableView({ target, namespace, labelSelector, onLabelSelector, limit, pageIndex, onPaging }: TableViewProps) {
  const client = useClient();
  const queryClient = useQueryClient();
  // A continue token reads the snapshot the first page was cut from, so re-reading page 3 with its
  // old token would never show a change: each read walks from a fresh first page instead, and every
  // page follows the watch as the first one does.
  const setPageIndex = (index: number) => onPaging({ limit, pageIndex: index });
  const [selectorDraft, setSelectorDraft] = useState(labelSelector);
  // Pods read best with their node and IP (where the scheduler put them), as `-o wide` prints.
  const [wide, setWide] = useState(target.resource === 'pods');
  const key = queryKeys.table.page(client.apiBase, target, { namespace, labelSelector, limit, pageIndex });
  const page = useQuery({ queryKey: key, queryFn: () => walkToPage(pageIndex, (token) => client.tablePage(target, { namespace, limit, continue: token, labelSelector: labelSelector || undefined })), placeholderData: keepPreviousData });
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: queryKeys.table.resource(client.apiBase, target) }), [queryClient, client, target.group, target.version, target.resource]);
  const live = useLiveList(target, namespace, labelSelector, refresh);

  const objectLink = useCallback(
    (name: string, ns?: string): string => {
      const state: ViewState = { view: 'object', group: target.group, version: target.version, resource: target.resource, name, ...(ns ? { namespace: ns } : {}) };
      return formatHash(state);
    },
    [target.group, target.version, target.resource],
  );
  const rows = page.data?.rows ?? [];

  return (
    <section aria-label={`${target.resource} list`} className="table-view">
      {/* Which collection this is, first: a learner arriving from a link sees what they are looking at. */}
      <h2 className="list-title">
        {target.resource} <small className="muted">{!target.namespaced ? 'cluster-scoped' : namespace ? `in namespace ${namespace}` : 'in every namespace'} · {apiVersionOf(target.group, target.version)}</small>
      </h2>
      <form
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          onLabelSelector(selectorDraft.trim());
        }}
      >
        <label>
          Label selector <input value={selectorDraft} onChange={(e) => setSelectorDraft(e.target.value)} placeholder="app=web,tier!=db" />
        </label>
        <button type="submit">Filter</button>
        <label>
          limit{' '}
          <select value={limit} onChange={(e) => onPaging({ limit: Number(e.target.value), pageIndex: 0 })}>
            {LIST_LIMITS.map((n) => <option key={n}>{n}</option>)}
          </select>
        </label>
        <label title="Also the columns kubectl prints only with -o wide">
          <input type="checkbox" checked={wide} onChange={(e) => setWide(e.target.checked)} /> <code>-o wide</code>
        </label>
      </form>
      <NewObjectForm target={target} namespace={namespace} />
      <ErrorBox error={page.error} />
      {page.isPending && <p aria-busy="true">Loading…</p>}
      {/* A failed refetch keeps the last page in the cache; it is not shown as if it were current. */}
      {page.data && !page.error && (
        <>
          <dl className="paging-facts" aria-label="Paging">
            <dt>resourceVersion</dt><dd data-testid="list-rv">{page.data.resourceVersion}</dd>
            <dt>continue</dt><dd><code data-testid="continue-token">{page.data.continue || '(last page)'}</code></dd>
            <dt>remainingItemCount</dt><dd data-testid="remaining">{page.data.remainingItemCount ?? '—'}</dd>
            <dt>page</dt><dd data-testid="page-number">{page.data.pageIndex + 1}</dd>
            <dt>rows</dt><dd data-testid="row-count">{rows.length}</dd>
          </dl>
          <div className="pager">
            <button type="button" disabled={page.data.pageIndex === 0} onClick={() => setPageIndex(page.data.pageIndex - 1)}>Previous page</button>
            <button type="button" disabled={!page.data.continue} onClick={() => setPageIndex(page.data.pageIndex + 1)}>Next page</button>
            {page.isFetching && <span aria-busy="true"> refreshing…</span>}
          </div>
          <VirtualRows columns={page.data.columns} rows={rows} objectLink={objectLink} wide={wide} />
        </>
      )}
      {/* The watch starts with the same list: the same refusal is said once. */}
      {!sameError(live.error, page.error) && <ErrorBox error={live.error} />}
      <EventLog entries={live.snapshot.log} resourceVersion={live.snapshot.resourceVersion} />
    </section>
  );
}

/**
 * Reads page `index` by following continue tokens from a fresh first page. When the list has
 * shrunk below that page, the last page there is answers, with its own index.
 */
async function walkToPage<P extends { continue: string }>(index: number, read: (token: string | undefined) => Promise<P>): Promise<P & { pageIndex: number }> {
  let page = await read(undefined);
  let at = 0;
  while (at < index && page.continue) {
    page = await read(page.continue);
    at++;
  }
  return { ...page, pageIndex: at };
}

function sameError(a: unknown, b: unknown): boolean {
  if (!a || !b) return false;
  const x = describeError(a);
  const y = describeError(b);
  return x.code === y.code && x.message === y.message;
}
