// events.k8s.io Events (v1 and v1beta1) are the core Event under other field names, validated by
// the same v1.23 functions (pkg/apis/core/validation/events.go) with the request's version:
// legacyValidateEvent for every version, and for events.k8s.io/v1 the strict create checks
// (eventTime required, type Normal or Warning, the deprecated fields unset, a valid series).
// Paths are the internal type's (involvedObject, message, count), as kube reports them.
import { type FieldError, FIELD_IMMUTABLE, invalid, required } from './errors';
import type { KindRules } from './kind-rules';
import { legacyValidateEvent, type EventFieldNames } from './core-misc';
import { semanticEqual } from './gofmt';
import { str, type Obj } from './values';
import { goTimeString, parseGoTime, RFC3339, RFC3339_MICRO } from '../codec/go-time';

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

const EVENTS_V1: EventFieldNames = { involvedObject: 'regarding', reportingController: 'reportingController', message: 'note' };
const legacy = (ev: Obj): FieldError[] => legacyValidateEvent(ev, EVENTS_V1);

/** validateV1EventSeries. */
function series(ev: Obj): FieldError[] {
  const s = ev.series;
  if (!s || typeof s !== 'object') return [];
  const errs: FieldError[] = [];
  if (!(typeof s.count === 'number' && s.count >= 2)) errs.push(invalid('series.count', '', 'should be at least 2'));
  if (!isSet(s.lastObservedTime)) errs.push(required('series.lastObservedTime'));
  return errs;
}

const strict = (ev: Obj): boolean => ev.apiVersion === 'events.k8s.io/v1';

function validateCreate(ev: Obj): FieldError[] {
  const errs = legacy(ev);
  if (!strict(ev)) return errs;
  errs.push(...series(ev));
  if (!isSet(ev.eventTime)) errs.push(required('eventTime'));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(invalid('type', '', `has invalid value: ${str(ev.type)}`));
  if (isSet(ev.deprecatedFirstTimestamp)) errs.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (isSet(ev.deprecatedLastTimestamp)) errs.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof ev.deprecatedCount === 'number' && ev.deprecatedCount !== 0) errs.push(invalid('count', '', 'needs to be unset'));
  const source = ev.deprecatedSource;
  if (source && typeof source === 'object' && (isSet(source.component) || isSet(source.host))) errs.push(invalid('source', '', 'needs to be unset'));
  return errs;
}

const q = (v: unknown): string => JSON.stringify(typeof v === 'string' ? v : '');

/** core.ObjectReference as %#v prints it (a nil pointer as field.Error prints it: null). */
function goObjectReference(r: unknown, pointer = false): string {
  if (pointer && (r === undefined || r === null)) return 'null';
  const o: Obj = r && typeof r === 'object' ? r : {};
  return `core.ObjectReference{Kind:${q(o.kind)}, Namespace:${q(o.namespace)}, Name:${q(o.name)}, UID:${q(o.uid)}, APIVersion:${q(o.apiVersion)}, ResourceVersion:${q(o.resourceVersion)}, FieldPath:${q(o.fieldPath)}}`;
}

type TimeLayout = typeof RFC3339 | typeof RFC3339_MICRO;
/** Go's zero time, 0001-01-01T00:00:00Z: what an unset metav1.Time holds. */
const ZERO_TIME = { ms: new Date(0).setUTCFullYear(1, 0, 1), nanos: 0 };
const instant = (layout: TimeLayout, v: unknown) => {
  const r = typeof v === 'string' && v ? parseGoTime(layout, v) : undefined;
  return r && 'time' in r ? r.time : ZERO_TIME;
};

/**
 * ValidateEventUpdate (v1.23): the legacy checks for every version; through events.k8s.io/v1 also
 * a changed series checked again and every event field immutable, in upstream's order (reason
 * is checked twice there, so a changed reason reports twice, as in kube).
 */
function validateUpdate(ev: Obj, old: Obj): FieldError[] {
  const errs = legacy(ev);
  if (!strict(ev)) return errs;
  if (!semanticEqual(ev.series, old.series)) errs.push(...series(ev));
  // Struct and scalar fields compare as Go values: by the text %#v prints for them.
  const same = (path: string, field: string, text: (o: Obj) => string) => {
    const t = text(ev);
    if (t !== text(old)) errs.push(invalid(path, ev[field] ?? null, FIELD_IMMUTABLE, t));
  };
  const string = (path: string, field: string) => same(path, field, (o) => q(o[field]));
  const time = (path: string, field: string, layout: TimeLayout) => {
    const [a, b] = [instant(layout, ev[field]), instant(layout, old[field])];
    if (a.ms !== b.ms || a.nanos !== b.nanos) errs.push(invalid(path, ev[field] ?? null, FIELD_IMMUTABLE, goTimeString(a)));
  };
  same('involvedObject', 'regarding', (o) => goObjectReference(o.regarding));
  string('reason', 'reason');
  string('message', 'note');
  same('source', 'deprecatedSource', (o) => `core.EventSource{Component:${q(o.deprecatedSource?.component)}, Host:${q(o.deprecatedSource?.host)}}`);
  time('firstTimestamp', 'deprecatedFirstTimestamp', RFC3339);
  time('lastTimestamp', 'deprecatedLastTimestamp', RFC3339);
  same('count', 'deprecatedCount', (o) => String(typeof o.deprecatedCount === 'number' ? o.deprecatedCount : 0));
  string('reason', 'reason');
  string('type', 'type');
  time('eventTime', 'eventTime', RFC3339_MICRO);
  string('action', 'action');
  same('related', 'related', (o) => goObjectReference(o.related, true));
  string('reportingController', 'reportingController');
  string('reportingInstance', 'reportingInstance');
  return errs;
}

export const eventsV1Rules: KindRules = { validateCreate, validateUpdate };
