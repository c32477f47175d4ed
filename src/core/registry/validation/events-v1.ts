// events.k8s.io Events (v1 and v1beta1) are the core Event under other field names, validated by
// the same v1.23 functions (pkg/apis/core/validation/events.go) with the request's version:
// legacyValidateEvent for every version, and for events.k8s.io/v1 the strict create checks
// (eventTime required, type Normal or Warning, the deprecated fields unset, a valid series).
// Paths are the internal type's (involvedObject, message), as kube reports them, except
// reportingController, which kube names per request version.
import { type FieldError, invalid, required } from './errors';
import type { KindRules } from './kind-rules';
import { legacyValidateEvent, type EventFieldNames } from './core-misc';
import { str, type Obj } from './values';


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
  if (isSet(ev.deprecatedFirstTimestamp)) errs.push(invalid('deprecatedFirstTimestamp', '', 'needs to be unset'));
  if (isSet(ev.deprecatedLastTimestamp)) errs.push(invalid('deprecatedLastTimestamp', '', 'needs to be unset'));
  if (typeof ev.deprecatedCount === 'number' && ev.deprecatedCount !== 0) errs.push(invalid('deprecatedCount', '', 'needs to be unset'));
  const source = ev.deprecatedSource;
  if (source && typeof source === 'object' && (isSet(source.component) || isSet(source.host))) errs.push(invalid('deprecatedSource', '', 'needs to be unset'));
  return errs;
}

/** ValidateEventUpdate: legacy checks, and for v1 a changed series is checked again. */
function validateUpdate(ev: Obj, old: Obj): FieldError[] {
  const errs = legacy(ev);
  if (strict(ev) && JSON.stringify(ev.series ?? null) !== JSON.stringify(old.series ?? null)) errs.push(...series(ev));
  return errs;
}

export const eventsV1Rules: KindRules = { validateCreate, validateUpdate };
