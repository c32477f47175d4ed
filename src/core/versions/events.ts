// Event: core v1 (storage and hub) <-> events.k8s.io v1 / v1beta1. Both events.k8s.io versions
// have the same field names in 1.23; they are renames of the core fields (facts from
// pkg/apis/events/v1/conversion.go). Keys come out in the target type's Go field order.
import type { JsonObject } from './json';
import { setOwnKey } from '../codec/own-keys';

/** [events.k8s.io name, core v1 name], in events.k8s.io Event field order. */
const EVENTS_TO_CORE: ReadonlyArray<readonly [string, string]> = [
  ['metadata', 'metadata'],
  ['eventTime', 'eventTime'],
  ['series', 'series'],
  ['reportingController', 'reportingComponent'],
  ['reportingInstance', 'reportingInstance'],
  ['action', 'action'],
  ['reason', 'reason'],
  ['regarding', 'involvedObject'],
  ['related', 'related'],
  ['note', 'message'],
  ['type', 'type'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
];

/** core v1 Event field order. */
const CORE_ORDER = [
  'metadata',
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
];

const TYPE_META = new Set(['apiVersion', 'kind']);

function rename(obj: JsonObject, pairs: Map<string, string>, order: readonly string[]): JsonObject {
  const renamed: JsonObject = {};
  const extra: JsonObject = {};
  for (const [key, value] of Object.entries(obj)) {
    if (TYPE_META.has(key)) continue;
    const target = pairs.get(key);
    if (target !== undefined) renamed[target] = value;
    else setOwnKey(extra, key, value);
  }
  const out: JsonObject = {};
  for (const key of order) if (Object.hasOwn(renamed, key)) setOwnKey(out, key, renamed[key]);
  return { ...out, ...extra };
}

const toCore = new Map(EVENTS_TO_CORE.map(([events, core]) => [events, core] as [string, string]));
const toEvents = new Map(EVENTS_TO_CORE.map(([events, core]) => [core, events] as [string, string]));
const EVENTS_ORDER = EVENTS_TO_CORE.map(([events]) => events);

export function eventToHub(obj: JsonObject, group: string): JsonObject {
  return group === '' ? obj : rename(obj, toCore, CORE_ORDER);
}

export function eventFromHub(obj: JsonObject, group: string): JsonObject {
  return group === '' ? obj : rename(obj, toEvents, EVENTS_ORDER);
}
