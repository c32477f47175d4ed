// What `kubectl describe` shows under an object: its status conditions and its Events (the
// controllers', the scheduler's and the kubelets' reports about it), kept live from a watch of
// the events naming the object's uid. Newest last, as describe prints them.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { KubeObject } from '../../lib/watch';
import { useClient } from '../client-context';
import { ErrorBox } from '../ErrorBox';
import { eventAge, eventRows, type EventRow } from './object-events';
import { clusterNow } from './cluster-now';
import './cluster.css';

const EVENTS = { group: '', version: 'v1', resource: 'events', namespaced: true } as const;

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

export function ObjectFacts({ object }: { object: KubeObject }) {
  const status = (object.status ?? {}) as { conditions?: Condition[] };
  const conditions = Array.isArray(status.conditions) ? status.conditions : [];
  const uid = String(object.metadata?.uid ?? '');
  // The status's own scalars (phase, IPs, replica counts), as describe prints them above the conditions.
  const scalars = Object.entries((object.status ?? {}) as Record<string, unknown>).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v));
  return (
    <section className="object-facts" aria-label="Status and events">
      <h3>Status</h3>
      {scalars.length > 0 ? (
        <dl className="paging-facts" aria-label="Status fields" data-testid="status-fields">
          {scalars.map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">No status reported{conditions.length ? ' besides the conditions' : ''}.</p>
      )}
      {conditions.length > 0 && (
        <>
          <h3>Conditions</h3>
          <table aria-label="Conditions">
            <thead>
              <tr><th>Type</th><th>Status</th><th>Reason</th><th>Message</th></tr>
            </thead>
            <tbody>
              {conditions.map((c) => (
                <tr key={c.type}>
                  <td className="nowrap">{c.type}</td>
                  <td className={c.status === 'True' ? 'status-true' : c.status === 'False' ? 'status-false' : ''}>{c.status}</td>
                  <td className="nowrap">{c.reason ?? ''}</td>
                  <td>{c.message ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {uid && <ObjectEventList uid={uid} namespace={object.metadata?.namespace as string | undefined} />}
    </section>
  );
}

function ObjectEventList({ uid, namespace }: { uid: string; namespace: string | undefined }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const fieldSelector = `involvedObject.uid=${uid}`;
  // Events of a cluster-scoped object (a Node) live in `default`, so those are read across namespaces.
  const key = ['object-events', client.apiBase, namespace ?? '', uid];
  const events = useQuery({ queryKey: key, queryFn: async () => eventRows((await client.list(EVENTS, { namespace, fieldSelector })).items) });
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        for await (const _ of client.watch(EVENTS, { namespace, fieldSelector, signal: controller.signal })) void queryClient.invalidateQueries({ queryKey: key });
      } catch {
        // The list above shows a refusal; a watch that ends just stops refreshing.
      }
    })();
    return () => controller.abort();
  }, [client, uid, namespace]);
  const rows = events.data ?? [];
  return (
    <>
      <h3>
        Events <small className="muted">(kubectl describe)</small>
      </h3>
      <ErrorBox error={events.error} />
      {events.data && rows.length === 0 && <p className="muted">No events about this object.</p>}
      {rows.length > 0 && (
        <div className="events-scroll">
          <table aria-label="Events" data-testid="object-events">
            <thead>
              <tr><th>Type</th><th>Reason</th><th>Age</th><th>From</th><th>Message</th></tr>
            </thead>
            <tbody>
              {rows.map((e: EventRow) => (
                <tr key={e.name} className={e.type === 'Warning' ? 'event-warning' : undefined}>
                  <td className="nowrap">{e.type}</td>
                  <td className="nowrap">{e.reason}</td>
                  <td className="nowrap" title={e.lastTimestamp}>{eventAge(e, clusterNow(queryClient, client.apiBase))}</td>
                  <td className="nowrap">{e.from}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
