// Namespace, ServiceAccount, Node, Event and Lease rules (core and coordination v1, v1.23).
import { type FieldError, index, invalid, notSupported, required, IS_NEGATIVE } from './errors';
import type { KindRules } from './kind-rules';
import { validateFinalizers } from './meta';
import { isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from './names';

type Obj = Record<string, any>;

export const namespaceRules: KindRules = {
  defaults(ns: Obj) {
    // The namespace registry adds the `kubernetes` finalizer; defaulting adds the name label.
    const spec: Obj = ns.spec && typeof ns.spec === 'object' ? ns.spec : (ns.spec = {});
    if (!Array.isArray(spec.finalizers)) spec.finalizers = ['kubernetes'];
    const status: Obj = ns.status && typeof ns.status === 'object' ? ns.status : (ns.status = {});
    if (!status.phase) status.phase = 'Active';
    const name = ns.metadata?.name;
    if (typeof name === 'string' && name) {
      ns.metadata.labels = { ...(ns.metadata.labels ?? {}), 'kubernetes.io/metadata.name': name };
    }
  },
  prepareForUpdate(ns: Obj, old: Obj) {
    // Namespace spec.finalizers only change through the finalize subresource.
    if (Array.isArray(old?.spec?.finalizers)) ns.spec = { ...(ns.spec ?? {}), finalizers: [...old.spec.finalizers] };
  },
  validateCreate: (ns) => validateFinalizers(ns.spec?.finalizers, 'spec.finalizers', true),
  validateUpdate: (ns) => validateFinalizers(ns.spec?.finalizers, 'spec.finalizers', true),
};

export const serviceAccountRules: KindRules = {};

function validateTaints(taints: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const effects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
  const seen = new Set<string>();
  (Array.isArray(taints) ? taints : []).forEach((t: Obj, i: number) => {
    const ip = index(path, i);
    for (const m of isQualifiedName(String(t?.key ?? ''))) errs.push(invalid(`${ip}.key`, t?.key ?? '', m));
    if (t?.value) for (const m of isValidLabelValue(String(t.value))) errs.push(invalid(`${ip}.value`, t.value, m));
    if (!t?.effect) errs.push(required(`${ip}.effect`));
    else if (!effects.includes(t.effect)) errs.push(notSupported(`${ip}.effect`, t.effect, effects));
    const k = `${t?.key}:${t?.effect}`;
    if (seen.has(k)) errs.push(invalid(ip, t, 'taints must be unique by key and effect pair'));
    seen.add(k);
  });
  return errs;
}

export const nodeRules: KindRules = {
  defaults(node: Obj) {
    // SetDefaults_NodeStatus: allocatable defaults to capacity.
    const st = node.status;
    if (st && typeof st === 'object' && st.capacity && !st.allocatable) st.allocatable = { ...st.capacity };
  },
  validateCreate: (node) => validateTaints(node.spec?.taints, 'spec.taints'),
  validateUpdate: (node) => validateTaints(node.spec?.taints, 'spec.taints'),
};

/** Where an Event's fields are: the core v1 names, or events.k8s.io's for the same internal fields. */
export interface EventFieldNames {
  involvedObject: 'involvedObject' | 'regarding';
  reportingController: 'reportingComponent' | 'reportingController';
  message: 'message' | 'note';
}

const CORE_EVENT: EventFieldNames = { involvedObject: 'involvedObject', reportingController: 'reportingComponent', message: 'message' };

/**
 * legacyValidateEvent: the involved object's namespace must agree with the event's, and a
 * new-style event (with eventTime) names its reporter, action and reason. Paths are the internal
 * type's, whatever names the request used.
 */
export function legacyValidateEvent(ev: Obj, names: EventFieldNames = CORE_EVENT): FieldError[] {
  const errs: FieldError[] = [];
  const ns = String(ev.metadata?.namespace ?? '');
  const ions = String(ev[names.involvedObject]?.namespace ?? '');
  const mismatch = () => invalid('involvedObject.namespace', ions, 'does not match event.namespace');
  if (!ev.eventTime) {
    if (!ions) {
      if (ns !== '' && ns !== 'default') errs.push(mismatch());
    } else if (ns !== ions) errs.push(mismatch());
  } else {
    const controller = ev[names.reportingController];
    if (!ions && ns !== 'default' && ns !== 'kube-system') errs.push(mismatch());
    if (!controller) errs.push(required('reportingController'));
    for (const m of isQualifiedName(String(controller ?? ''))) errs.push(invalid('reportingController', controller ?? '', m));
    if (!ev.reportingInstance) errs.push(required('reportingInstance'));
    if (String(ev.reportingInstance ?? '').length > 128) errs.push(invalid('reportingInstance', '', 'can have at most 128 characters'));
    if (!ev.action) errs.push(required('action'));
    if (String(ev.action ?? '').length > 128) errs.push(invalid('action', '', 'can have at most 128 characters'));
    if (!ev.reason) errs.push(required('reason'));
    if (String(ev.reason ?? '').length > 128) errs.push(invalid('reason', '', 'can have at most 128 characters'));
    if (String(ev[names.message] ?? '').length > 1024) errs.push(invalid('message', '', 'can have at most 1024 characters'));
  }
  for (const m of isDNS1123Subdomain(ns)) errs.push(invalid('namespace', ns, m));
  return errs;
}

const validateEvent = (ev: Obj): FieldError[] => legacyValidateEvent(ev);

export const eventRules: KindRules = {
  validateCreate: validateEvent,
  validateUpdate: validateEvent,
};

function validateLease(lease: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = lease.spec ?? {};
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errs.push(invalid('spec.leaseTransitions', spec.leaseTransitions, IS_NEGATIVE));
  }
  return errs;
}

export const leaseRules: KindRules = { validateCreate: validateLease, validateUpdate: validateLease };
