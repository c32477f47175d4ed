// One object: live YAML with the ownership overlay (refreshed from a watch on that one name), and
// the write actions below it. A name that does not exist yet is not an error page: the actions
// stay available so the object can be created (apply creates too).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { stringify } from 'yaml';
import { KubeApiError, type StatusCause } from '../lib/api-errors';
import { apiVersionOf, type ResourceRef } from '../lib/api-paths';
import { conflictLines, ownershipView } from '../lib/ownership';
import { skeletonConfig, startingConfig } from '../lib/starting-config';
import { useClient } from './client-context';
import { queryKeys } from '../lib/query-keys';
import { ErrorBox } from './ErrorBox';
import { OwnershipGutter } from './OwnershipGutter';
import { ObjectTimeline } from './ObjectTimeline';
import { WriteActions } from './WriteActions';
import { ObjectFacts } from './cluster/ObjectEvents';

interface ObjectMeta {
  deletionTimestamp?: string;
  finalizers?: string[];
}

export function ObjectView({ target, namespace, name }: { target: ResourceRef; namespace?: string; name: string }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const key = queryKeys.object(client.apiBase, target, namespace, name);
  const object = useQuery({ queryKey: key, queryFn: () => client.get(target, namespace, name) });
  const discovery = useQuery({ queryKey: queryKeys.discovery(client.apiBase), queryFn: () => client.discover(), staleTime: 30_000 });
  const [showRaw, setShowRaw] = useState(false);
  const [pane, setPane] = useState<'live' | 'history' | 'events'>('live');
  const [conflicts, setConflicts] = useState<StatusCause[]>([]);
  const [watchError, setWatchError] = useState<unknown>(null);
  const settled = useRef(false);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });

  // Any event for this name (from this tab or any other client) refreshes the object and overlay.
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        for await (const _ of client.watch(target, { namespace, fieldSelector: `metadata.name=${name}`, signal: controller.signal })) refresh();
      } catch (e) {
        if (!controller.signal.aborted) setWatchError(e);
      }
    })();
    return () => controller.abort();
  }, [client, target.group, target.version, target.resource, namespace, name]);

  const shown = object.isError ? undefined : object.data;
  const view = useMemo(() => (shown ? ownershipView(shown, { showManagedFields: showRaw }) : undefined), [shown, showRaw]);
  const marked = useMemo(() => (view ? conflictLines(view, conflicts) : []), [view, conflicts]);
  const kind = discovery.data?.flatMap((g) => g.versions.flatMap((v) => v.resources)).find((r) => r.group === target.group && r.version === target.version && r.resource === target.resource)?.kind;

  // react-query goes back to `pending` when it refetches a query that never had data (a name that
  // did not exist); only the very first load may replace the view, or the editor would be lost.
  if (!object.isPending) settled.current = true;
  if (!settled.current) return <p aria-busy="true">Loading {name}…</p>;
  const missing = object.error instanceof KubeApiError && object.error.code === 404;
  if (object.isError && !missing) return <ErrorBox error={object.error} />;
  // After a 404 react-query still holds the last object it saw; a deleted object is gone.
  const live = missing ? undefined : object.data;
  const meta = (live?.metadata ?? {}) as ObjectMeta;
  const starting = () => stringify(live ? startingConfig(live) : skeletonConfig(apiVersionOf(target.group, target.version), kind ?? '', name, namespace));

  return (
    <section aria-label={`${target.resource}/${name}`} className="object-view">
      <h2>
        {live?.kind ?? kind ?? target.resource} {namespace ? `${namespace}/` : ''}
        {name} {meta.deletionTimestamp && <span className="badge" data-testid="terminating">Terminating</span>}
      </h2>
      {missing && (
        <p data-testid="not-found" role="status">
          {name} does not exist (404 NotFound: {object.error?.message}). Apply or create it below.
        </p>
      )}
      {meta.deletionTimestamp && (
        <p role="status">
          Deletion requested at {meta.deletionTimestamp}; waiting for finalizers: {(meta.finalizers ?? []).map((f) => <code key={f}>{f} </code>)}
        </p>
      )}
      <ErrorBox error={watchError} />
      <div className="object-columns">
        <div className="live-column" aria-label="Live object">
          <div className="pane-switch" role="group" aria-label="Show">
            <button type="button" aria-pressed={pane === 'live'} onClick={() => setPane('live')}>
              Live
            </button>
            <button type="button" aria-pressed={pane === 'history'} onClick={() => setPane('history')} disabled={!live}>
              History
            </button>
            <button type="button" aria-pressed={pane === 'events'} onClick={() => setPane('events')} disabled={!live}>
              Status &amp; events
            </button>
          </div>
          {pane === 'events' && live ? (
            <ObjectFacts object={live} />
          ) : pane === 'history' && live ? (
            <ObjectTimeline adminBase={`${client.apiBase.replace(/\/?$/, '/')}__playground/`} uid={String(live.metadata?.uid ?? '')} resourceVersion={String(live.metadata?.resourceVersion ?? '')} apiVersion={String(live.apiVersion ?? '')} kind={String(live.kind ?? '')} />
          ) : view ? (
            <>
              <label>
                <input type="checkbox" checked={showRaw} onChange={(e) => setShowRaw(e.target.checked)} /> Show raw managedFields
              </label>
              <OwnershipGutter view={view} conflicts={marked} />
            </>
          ) : (
            <p>No live object to show.</p>
          )}
        </div>
        <div className="edit-column">
          <h3>Change it</h3>
          <WriteActions
            target={target}
            namespace={namespace}
            name={name}
            live={live}
            starting={starting}
            managers={view?.legend.map((e) => e.manager) ?? []}
            conflicts={conflicts}
            onConflicts={setConflicts}
            onWritten={refresh}
          />
        </div>
      </div>
    </section>
  );
}
