// events.k8s.io Events (v1 and v1beta1) are the core Event under other field names, validated by
// the same v1.23 functions (pkg/apis/core/validation/events.go) with the request's version:
// legacyValidateEvent for every version, and for events.k8s.io/v1 the strict create checks
// (eventTime required, type Normal or Warning, the deprecated fields unset, a valid series).
// Paths are the internal type's (involvedObject, message), as kube reports them, except
// reportingController, which kube names per request version.
import { type FieldError, invalid, required } from './errors';
import type { KindRules } from './kind-rules';
import { isDNS1123Subdomain, isQualifiedName } from './names';

type Obj = Record<string, any>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/** legacyValidateEvent in the events.k8s.io shape (regarding is the involved object). */
function legacy(ev: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ns = str(ev.metadata?.namespace);
  const regardingNs = str(ev.regarding?.namespace);
  const mismatch = () => invalid('involvedObject.namespace', regardingNs, 'does not match event.namespace');
  if (!isSet(ev.eventTime)) {
    if (!regardingNs) {
      if (ns !== '' && ns !== 'default') errs.push(mismatch());
    } else if (ns !== regardingNs) errs.push(mismatch());
  } else {
    if (!regardingNs && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch());
    const controller = str(ev.reportingController);
    if (!controller) errs.push(required('reportingController'));
    for (const m of isQualifiedName(controller)) errs.push(invalid('reportingController', controller, m));
    if (!isSet(ev.reportingInstance)) errs.push(required('reportingInstance'));
    if (str(ev.reportingInstance).length > 128) errs.push(invalid('reportingInstance', '', 'can have at most 128 characters'));
    if (!isSet(ev.action)) errs.push(required('action'));
    if (str(ev.action).length > 128) errs.push(invalid('action', '', 'can have at most 128 characters'));
    if (!isSet(ev.reason)) errs.push(required('reason'));
    if (str(ev.reason).length > 128) errs.push(invalid('reason', '', 'can have at most 128 characters'));
    if (str(ev.note).length > 1024) errs.push(invalid('message', '', 'can have at most 1024 characters'));
  }
  for (const m of isDNS1123Subdomain(ns)) errs.push(invalid('namespace', ns, m));
  return errs;
}

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
