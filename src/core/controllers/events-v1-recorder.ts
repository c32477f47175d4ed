// Events as client-go's new recorder (k8s.io/client-go/tools/events, v1.23) writes them through
// events.k8s.io/v1 — the one kube-scheduler uses. An event carries reportingController,
// reportingInstance (`<controller>-<hostname>`), action and a MicroTime eventTime, and none of the
// deprecated core fields (read through core/v1: source {}, no timestamps, no count).
// Isomorphic events (same regarding, related, action, reason, controller; the note may differ)
// make a series: the first repeat sets series {count: 1} and patches it — which a v1.23 server
// rejects ("series.count: should be at least 2", fixed upstream only in 1.26), so it is dropped —
// later repeats only count in memory, and the count reaches the server when the series is
// refreshed (every 30 minutes) or finished (checked every 6 minutes: quiet for 6 minutes).
// Entries quiet for 6 minutes are forgotten, so the next occurrence is a new event.
import type { Obj } from '../registry/objects';
import type { ApiClient } from './client';
import type { Clock } from './clock';
import { eventName } from './events-correlator';
import { patchElseCreate } from './events';
import { stripManagedFields } from './informer-transform';

/**
 * The host kube-scheduler runs on, for its reportingInstance: the playground has no control-plane
 * node, so it is named as kind names one (`<cluster>-control-plane`, the cluster being `playground`).
 */
export const SCHEDULER_HOSTNAME = 'playground-control-plane';

const FINISH_MS = 6 * 60_000;
const REFRESH_MS = 30 * 60_000;

/** metav1.MicroTime as JSON (six fractional digits; the clock has milliseconds). */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** reference.GetReference of an object (kind and apiVersion must be set). */
function referenceTo(o: Obj): Obj {
  return { kind: o.kind, namespace: o.metadata?.namespace, name: o.metadata?.name, uid: o.metadata?.uid, apiVersion: o.apiVersion, resourceVersion: o.metadata?.resourceVersion };
}

export interface EventsV1Occurrence {
  regarding: Obj;
  related?: Obj;
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
  reportingController: string;
  reportingInstance: string;
}

/** The event the recorder makes (makeEvent), with the deprecated fields as client-go's JSON carries them. */
export function eventsV1Event(o: EventsV1Occurrence, now: number): Obj {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: eventName(String(o.regarding.metadata?.name), now), namespace: String(o.regarding.metadata?.namespace || 'default') },
    eventTime: microTime(now),
    reportingController: o.reportingController,
    reportingInstance: o.reportingInstance,
    action: o.action,
    reason: o.reason,
    regarding: referenceTo(o.regarding),
    ...(o.related ? { related: referenceTo(o.related) } : {}),
    note: o.note,
    type: o.type,
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  };
}

interface Cached {
  event: Obj;
  /** Cluster ms of eventTime, or of series.lastObservedTime once a series. */
  lastMs: number;
}

export class EventsV1Recorder {
  private readonly cache = new Map<string, Cached>();
  private tail: Promise<void> = Promise.resolve();
  private nextSweepMs = 0;
  private finishTimer: (() => void) | undefined;
  private refreshTimer: (() => void) | undefined;
  readonly reportingInstance: string;

  constructor(
    private readonly client: ApiClient,
    private readonly clock: Clock,
    private readonly reportingController: string,
    hostname: string,
  ) {
    this.reportingInstance = `${reportingController}-${hostname}`;
  }

  /** Eventf(regarding, related, type, reason, action, note): resolves once written (or dropped). */
  record(regarding: Obj, related: Obj | undefined, type: 'Normal' | 'Warning', reason: string, action: string, note: string): Promise<void> {
    const now = this.clock.now();
    const event = eventsV1Event({ regarding, related, type, reason, action, note, reportingController: this.reportingController, reportingInstance: this.reportingInstance }, now);
    const key = JSON.stringify([action, reason, this.reportingController, event.regarding, event.related ?? null]);
    this.forgetQuietSingletons(now);
    let cached = this.cache.get(key);
    // finishSeries forgets a singleton quiet for 6 minutes; here that happens when it is next looked up.
    if (cached && !cached.event.series && cached.lastMs < now - FINISH_MS) cached = undefined;
    let toWrite: Obj | undefined = event;
    if (cached?.event.series) {
      cached.event = { ...cached.event, series: { count: cached.event.series.count + 1, lastObservedTime: microTime(now) } };
      cached.lastMs = now;
      toWrite = undefined;
    } else if (cached) {
      cached.event = { ...cached.event, series: { count: 1, lastObservedTime: microTime(now) } };
      cached.lastMs = now;
      toWrite = cached.event;
      this.armTimers();
    } else {
      this.cache.set(key, { event, lastMs: now });
    }
    if (!toWrite) return this.tail;
    const write = toWrite;
    this.tail = this.tail.then(async () => {
      const written = await this.write(write);
      const entry = this.cache.get(key);
      // As the broadcaster does, the server's answer replaces what was cached (a series counted
      // meanwhile included); without its managedFields, which no later write uses — the cache
      // holds every event of the last six minutes (10,000 of them for 10,000 pods scheduled).
      if (written && entry) entry.event = stripManagedFields(written);
    });
    return this.tail;
  }

  /** recordEvent: a series is patched (created when gone), anything else created. */
  private async write(event: Obj): Promise<Obj | undefined> {
    try {
      return await patchElseCreate(this.client, `/apis/events.k8s.io/v1/namespaces/${event.metadata.namespace}/events`, event, event.series ? { series: event.series } : undefined);
    } catch (err) {
      console.error(`${this.reportingController}: event ${event.reason} not recorded: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  /**
   * The broadcaster's two tickers, armed when a series starts and kept only while one is
   * counting: singletons need no timer (a quiet one is forgotten when next looked up), and an
   * idle cluster keeps no timers.
   */
  private armTimers(): void {
    if (![...this.cache.values()].some((e) => e.event.series)) return;
    this.finishTimer ??= this.clock.after(FINISH_MS, () => {
      this.finishTimer = undefined;
      this.finishSeries();
      this.armTimers();
    });
    this.refreshTimer ??= this.clock.after(REFRESH_MS, () => {
      this.refreshTimer = undefined;
      this.refreshSeries();
      this.armTimers();
    });
  }

  /** finishSeries' sweep of singletons, done lazily at most every 6 minutes as events come. */
  private forgetQuietSingletons(now: number): void {
    if (now < this.nextSweepMs) return;
    this.nextSweepMs = now + FINISH_MS;
    for (const [key, entry] of this.cache) if (!entry.event.series && entry.lastMs < now - FINISH_MS) this.cache.delete(key);
  }

  /** finishSeries: a quiet series writes its final count and is forgotten; a quiet singleton is forgotten. */
  private finishSeries(): void {
    const cutoff = this.clock.now() - FINISH_MS;
    for (const [key, entry] of this.cache) {
      if (entry.lastMs >= cutoff) continue;
      this.cache.delete(key);
      if (entry.event.series) this.tail = this.tail.then(() => this.write(entry.event).then(() => undefined));
    }
  }

  /** refreshExistingEventSeries: every series writes its count so far. */
  private refreshSeries(): void {
    for (const entry of this.cache.values()) {
      if (!entry.event.series) continue;
      this.tail = this.tail.then(async () => {
        const written = await this.write(entry.event);
        if (written) entry.event = written;
      });
    }
  }
}
