// Events as kube's record.EventRecorder writes them (core/v1), through client-go's EventCorrelator
// (events-correlator.ts): an event is created as `<involved object>.<hex of UnixNano>` with the
// reporting component as source, a repeat patches the first one's count, similar events are
// combined and a noisy source is cut off. Writes go out one at a time in the order recorded, as
// the broadcaster's single goroutine sends them, so a patch never overtakes its create. A failure
// to record is logged only: an event must never stop the work it describes.
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { rfc3339Seconds, type Clock } from './clock';
import { EventCorrelator, eventName } from './events-correlator';

/** The event kube's recorder makes for one occurrence (makeEvent plus its source). */
export function coreEvent(involved: Obj, type: 'Normal' | 'Warning', reason: string, message: string, source: Obj, now: number): Obj {
  const at = rfc3339Seconds(now);
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: eventName(String(involved.metadata?.name), now), namespace: String(involved.metadata?.namespace || 'default') },
    involvedObject: {
      kind: involved.kind,
      namespace: involved.metadata?.namespace,
      name: involved.metadata?.name,
      uid: involved.metadata?.uid,
      apiVersion: involved.apiVersion,
      resourceVersion: involved.metadata?.resourceVersion,
    },
    reason,
    message,
    source,
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  };
}

export class EventRecorder {
  private readonly correlator: EventCorrelator;
  private readonly source: Obj;
  /** The last write queued: the next one starts when it is done. */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    /** source.component: `deployment-controller`, `default-scheduler`, `kubelet`. */
    private readonly component: string,
    host?: string,
  ) {
    this.correlator = new EventCorrelator(clock);
    this.source = host ? { component, host } : { component };
  }

  /** Resolves when the event is written (or dropped): callers may await it or not. */
  record(involved: Obj, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    const result = this.correlator.correlate(coreEvent(involved, type, reason, message, this.source, this.clock.now()));
    if (result.skip) return this.tail;
    this.tail = this.tail.then(() => this.write(result.event, result.patch));
    return this.tail;
  }

  private async write(event: Obj, patch: Obj | undefined): Promise<void> {
    try {
      this.correlator.written(await patchElseCreate(this.client, `/api/v1/namespaces/${event.metadata.namespace}/events`, event, patch));
    } catch (err) {
      console.error(`${this.component}: event ${event.reason} not recorded: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/**
 * recordEvent's write, for both event APIs: a patch of the named event when there is one, and a
 * create of the whole event when there is none or the patch finds it gone (deleted or expired),
 * under the same name.
 */
export async function patchElseCreate(client: ApiClient, collection: string, event: Obj, patch: unknown): Promise<Obj> {
  if (patch !== undefined) {
    try {
      return await client.patch(`${collection}/${event.metadata.name}`, patch, 'strategic');
    } catch (err) {
      if (!(err instanceof ApiCallError && err.code === 404)) throw err;
    }
  }
  const { resourceVersion: _rv, ...metadata } = event.metadata as Obj;
  return client.create(collection, { ...event, metadata });
}
