// The shapes FlowSchema and PriorityLevelConfiguration validation needs besides its rules: how Go
// prints the internal types in Invalid values (%#v), and the mandatory objects (exempt,
// catch-all) whose specs must equal kube's fixed values, compared as Semantic.DeepEqual would.
import { goStringSlice } from './gofmt';
import { isObj, objs as structs, str, type Obj } from './values';

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
/** A []string; undefined when the list is nil (missing or null). */
export const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(str) : undefined);
export const FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE = 10000;
export const NAME_EXEMPT = 'exempt';
export const NAME_CATCH_ALL = 'catch-all';

// ---------------------------------------------------------------------------------------------
// Go %#v rendering of the internal types, for the Invalid values that print whole structs.
// Non-nil pointers print as an address in kube (a different one each time); a fixed one here.

const q = (s: string): string => JSON.stringify(s);
const ptr = (type: string, v: unknown): string =>
  isObj(v) ? `(*flowcontrol.${type})(0xc000000000)` : `(*flowcontrol.${type})(nil)`;
export const slice = (type: string, v: unknown, render: (o: Obj) => string): string =>
  Array.isArray(v) ? `[]flowcontrol.${type}{${structs(v).map(render).join(', ')}}` : `[]flowcontrol.${type}(nil)`;
const goStrings = (v: unknown): string => goStringSlice(strings(v));

function goSubject(s: Obj): string {
  return (
    `flowcontrol.Subject{Kind:${q(str(s.kind))}, User:${ptr('UserSubject', s.user)}, ` +
    `Group:${ptr('GroupSubject', s.group)}, ServiceAccount:${ptr('ServiceAccountSubject', s.serviceAccount)}}`
  );
}

function goResourceRule(r: Obj): string {
  return (
    `flowcontrol.ResourcePolicyRule{Verbs:${goStrings(r.verbs)}, APIGroups:${goStrings(r.apiGroups)}, ` +
    `Resources:${goStrings(r.resources)}, ClusterScope:${r.clusterScope === true}, Namespaces:${goStrings(r.namespaces)}}`
  );
}

function goNonResourceRule(r: Obj): string {
  return `flowcontrol.NonResourcePolicyRule{Verbs:${goStrings(r.verbs)}, NonResourceURLs:${goStrings(r.nonResourceURLs)}}`;
}

function goPolicyRules(r: Obj): string {
  return (
    `flowcontrol.PolicyRulesWithSubjects{Subjects:${slice('Subject', r.subjects, goSubject)}, ` +
    `ResourceRules:${slice('ResourcePolicyRule', r.resourceRules, goResourceRule)}, ` +
    `NonResourceRules:${slice('NonResourcePolicyRule', r.nonResourceRules, goNonResourceRule)}}`
  );
}

export function goFlowSchemaSpec(spec: Obj): string {
  const plc = isObj(spec.priorityLevelConfiguration) ? spec.priorityLevelConfiguration : {};
  return (
    `flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:${q(str(plc.name))}}, ` +
    `MatchingPrecedence:${num(spec.matchingPrecedence)}, DistinguisherMethod:${ptr('FlowDistinguisherMethod', spec.distinguisherMethod)}, ` +
    `Rules:${slice('PolicyRulesWithSubjects', spec.rules, goPolicyRules)}}`
  );
}

export function goDistinguisher(d: Obj): string {
  return `flowcontrol.FlowDistinguisherMethod{Type:${q(str(d.type))}}`;
}

export function goPriorityLevelSpec(spec: Obj): string {
  return `flowcontrol.PriorityLevelConfigurationSpec{Type:${q(str(spec.type))}, Limited:${ptr('LimitedPriorityLevelConfiguration', spec.limited)}}`;
}

// ---------------------------------------------------------------------------------------------
// The mandatory objects (internalbootstrap), compared as Semantic.DeepEqual compares the internal
// types: the JSON is first read into the Go shape (nil and empty lists are equal there; a pointer
// to an empty struct is not nil).

function canonSubject(s: Obj): unknown {
  const ref = (v: unknown, ...fields: string[]) => (isObj(v) ? fields.map((f) => str(v[f])) : null);
  return [str(s.kind), ref(s.user, 'name'), ref(s.group, 'name'), ref(s.serviceAccount, 'namespace', 'name')];
}

export function canonFlowSchemaSpec(spec: Obj): string {
  const plc = isObj(spec.priorityLevelConfiguration) ? spec.priorityLevelConfiguration : {};
  const list = (v: unknown) => strings(v) ?? [];
  return JSON.stringify([
    str(plc.name),
    num(spec.matchingPrecedence),
    isObj(spec.distinguisherMethod) ? [str(spec.distinguisherMethod.type)] : null,
    structs(spec.rules).map((r) => [
      structs(r.subjects).map(canonSubject),
      structs(r.resourceRules).map((rr) => [list(rr.verbs), list(rr.apiGroups), list(rr.resources), rr.clusterScope === true, list(rr.namespaces)]),
      structs(r.nonResourceRules).map((nr) => [list(nr.verbs), list(nr.nonResourceURLs)]),
    ]),
  ]);
}

export function canonPriorityLevelSpec(spec: Obj): string {
  const limited = spec.limited;
  let lim: unknown = null;
  if (isObj(limited)) {
    const lr = isObj(limited.limitResponse) ? limited.limitResponse : {};
    const qc = isObj(lr.queuing) ? [num(lr.queuing.queues), num(lr.queuing.handSize), num(lr.queuing.queueLengthLimit)] : null;
    lim = [num(limited.assuredConcurrencyShares), str(lr.type), qc];
  }
  return JSON.stringify([str(spec.type), lim]);
}

const groupSubjects = (...names: string[]) => names.map((name) => ({ kind: 'Group', group: { name } }));
const everything = (subjects: Obj[]): Obj => ({
  subjects,
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});

export const MANDATORY_FLOW_SCHEMA_SPECS: Record<string, string> = {
  [NAME_EXEMPT]: canonFlowSchemaSpec({
    priorityLevelConfiguration: { name: NAME_EXEMPT },
    matchingPrecedence: 1,
    rules: [everything(groupSubjects('system:masters'))],
  }),
  [NAME_CATCH_ALL]: canonFlowSchemaSpec({
    priorityLevelConfiguration: { name: NAME_CATCH_ALL },
    matchingPrecedence: FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE,
    distinguisherMethod: { type: 'ByUser' },
    rules: [everything(groupSubjects('system:unauthenticated', 'system:authenticated'))],
  }),
};

export const MANDATORY_PRIORITY_LEVEL_SPECS: Record<string, string> = {
  [NAME_EXEMPT]: canonPriorityLevelSpec({ type: 'Exempt' }),
  [NAME_CATCH_ALL]: canonPriorityLevelSpec({ type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } }),
};

export const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
