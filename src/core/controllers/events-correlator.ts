// client-go's EventCorrelator (tools/record/events_cache.go, v1.23), which every core/v1 event
// recorder runs each event through before it reaches the API:
// - the aggregator: events alike but for their message, 10 of them within 10 minutes of each
//   other, become one event "(combined from similar events): <message>" that later ones update;
// - the logger: an event seen before (same source, object, type, reason, message) is written as
//   a strategic merge patch of count, lastTimestamp and message on the first one's name;
// - the spam filter: a token bucket per source+object (burst 25, one more every 5 minutes), which
//   every event — patches included — draws from.
// Times come from the cluster's Clock, so tests move through the intervals with a virtual one.
import type { Obj } from '../registry/objects';
import { rfc3339Seconds, type Clock } from './clock';

const LRU_ENTRIES = 4096;
const AGGREGATE_MAX_EVENTS = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const SPAM_BURST = 25;
/** The refill rate, a float32 in Go (1/300 rounded up a hair: 300 s refill a whole token). */
const SPAM_QPS = Math.fround(1 / 300);

/** A map that forgets its least recently used key past `max` entries (groupcache's lru). */
class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as string);
  }
}

/** Event names are `<object>.<hex of UnixNano>`; ms clocks get a counter as nanoseconds so names made in one ms differ. */
let lastMs = -1;
let sameMs = 0;
export function eventName(involvedName: string, ms: number): string {
  sameMs = ms === lastMs ? sameMs + 1 : 0;
  lastMs = ms;
  return `${involvedName}.${(BigInt(ms) * 1_000_000n + BigInt(sameMs)).toString(16)}`;
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function objectKey(e: Obj): string {
  const o = e.involvedObject ?? {};
  return str(e.source?.component) + str(e.source?.host) + str(o.kind) + str(o.namespace) + str(o.name);
}

/** getEventKey: everything that makes two events the same occurrence. */
export function eventKey(e: Obj): string {
  const o = e.involvedObject ?? {};
  return objectKey(e) + str(o.fieldPath) + str(o.uid) + str(o.apiVersion) + str(e.type) + str(e.reason) + str(e.message);
}

/** getSpamKey: source and object, not type (v1.23). */
function spamKey(e: Obj): string {
  const o = e.involvedObject ?? {};
  return objectKey(e) + str(o.uid) + str(o.apiVersion);
}

/** EventAggregatorByReasonFunc's aggregate key (its local key is the message). */
function aggregateKey(e: Obj): string {
  const o = e.involvedObject ?? {};
  return objectKey(e) + str(o.uid) + str(o.apiVersion) + str(e.type) + str(e.reason) + str(e.reportingComponent) + str(e.reportingInstance);
}

/** golang.org/x/time/rate's limiter as flowcontrol's token bucket uses it: starts full, tokens accrue since the last accepted take. */
class TokenBucket {
  private tokens = SPAM_BURST;
  private last: number;
  constructor(now: number) {
    this.last = now;
  }

  tryAccept(now: number): boolean {
    const elapsed = Math.max(0, now - this.last) / 1000;
    const tokens = Math.min(SPAM_BURST, this.tokens + elapsed * SPAM_QPS) - 1;
    if (tokens < 0) return false;
    this.tokens = tokens;
    this.last = now;
    return true;
  }
}

interface AggregateRecord {
  messages: Set<string>;
  lastMs: number;
}

interface Observation {
  count: number;
  firstTimestamp: unknown;
  name: string;
  resourceVersion: unknown;
}

export type Correlation = { skip: true } | { skip: false; event: Obj; patch?: { count: number; lastTimestamp: string; message: string } };

export class EventCorrelator {
  private readonly aggregates = new Lru<AggregateRecord>(LRU_ENTRIES);
  private readonly observations = new Lru<Observation>(LRU_ENTRIES);
  private readonly buckets = new Lru<TokenBucket>(LRU_ENTRIES);

  constructor(private readonly clock: Clock) {}

  /** EventCorrelate: the event to create, or the patch of an earlier one, or nothing. */
  correlate(event: Obj): Correlation {
    const { event: aggregated, key } = this.aggregate(event);
    const observed = this.observe(aggregated, key);
    if (this.spam(observed.event)) return { skip: true };
    return { skip: false, ...observed };
  }

  /** updateState: what the server answered (name, count, resourceVersion) is what the next patch builds on. */
  written(event: Obj): void {
    this.observations.set(eventKey(event), {
      count: Number(event.count ?? 0),
      firstTimestamp: event.firstTimestamp,
      name: String(event.metadata?.name),
      resourceVersion: event.metadata?.resourceVersion,
    });
  }

  private aggregate(event: Obj): { event: Obj; key: string } {
    const now = this.clock.now();
    const groupKey = aggregateKey(event);
    let record = this.aggregates.get(groupKey);
    // A group quiet for more than the interval starts over (the window slides with each event).
    if (!record || now - record.lastMs > AGGREGATE_INTERVAL_MS) record = { messages: new Set(), lastMs: now };
    record.messages.add(str(event.message));
    record.lastMs = now;
    this.aggregates.set(groupKey, record);
    if (record.messages.size < AGGREGATE_MAX_EVENTS) return { event, key: eventKey(event) };
    // Keep the set below the threshold (Go pops an arbitrary member; which one cannot matter here).
    record.messages.delete(record.messages.values().next().value as string);
    const at = rfc3339Seconds(now);
    const combined: Obj = {
      ...event,
      metadata: { name: eventName(str(event.involvedObject?.name), now), namespace: event.metadata?.namespace },
      message: `(combined from similar events): ${str(event.message)}`,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    };
    return { event: combined, key: groupKey };
  }

  private observe(event: Obj, key: string): { event: Obj; patch?: { count: number; lastTimestamp: string; message: string } } {
    const last = this.observations.get(key);
    let observed = event;
    let patch: { count: number; lastTimestamp: string; message: string } | undefined;
    if (last && last.count > 0) {
      const metadata: Obj = { ...event.metadata, name: last.name };
      if (last.resourceVersion) metadata.resourceVersion = last.resourceVersion;
      observed = { ...event, metadata, firstTimestamp: last.firstTimestamp, count: last.count + 1 };
      // The two-way merge patch of the event against itself with count, lastTimestamp and message zeroed.
      patch = { count: last.count + 1, lastTimestamp: str(event.lastTimestamp), message: str(event.message) };
    }
    this.observations.set(key, { count: Number(observed.count), firstTimestamp: observed.firstTimestamp, name: String(observed.metadata?.name), resourceVersion: observed.metadata?.resourceVersion });
    return patch ? { event: observed, patch } : { event: observed };
  }

  /** True when the source has spent its budget for this object. */
  private spam(event: Obj): boolean {
    const now = this.clock.now();
    const key = spamKey(event);
    const bucket = this.buckets.get(key) ?? new TokenBucket(now);
    const accepted = bucket.tryAccept(now);
    this.buckets.set(key, bucket);
    return !accepted;
  }
}
