import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import {
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from '../kinds/flowcontrol-bootstrap-objects';
import { flowSchemaRules as fsRules, priorityLevelConfigurationRules as plRules } from './flowcontrol';

const GROUP = 'flowcontrol.apiserver.k8s.io';
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

const fs = (name: string, spec: any): any => {
  const obj: any = { apiVersion: `${GROUP}/v1beta2`, kind: 'FlowSchema', metadata: { name }, spec };
  fsRules.defaults!(obj);
  return obj;
};
const pl = (name: string, spec: any): any => {
  const obj: any = { apiVersion: `${GROUP}/v1beta2`, kind: 'PriorityLevelConfiguration', metadata: { name }, spec };
  plRules.defaults!(obj);
  return obj;
};
const fsMessage = (spec: any, name = 'fs') => invalidStatus(GROUP, 'FlowSchema', name, fsRules.validateCreate!(fs(name, spec))).message;
const plMessage = (spec: any, name = 'pl') => invalidStatus(GROUP, 'PriorityLevelConfiguration', name, plRules.validateCreate!(pl(name, spec))).message;
const FS = 'FlowSchema.flowcontrol.apiserver.k8s.io "fs" is invalid: ';
const PL = 'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "pl" is invalid: ';

const groupSubject = { kind: 'Group', group: { name: 'system:authenticated' } };
const nonResource = { verbs: ['get'], nonResourceURLs: ['/healthz'] };
/** A valid spec with one rule; `rule` fields replace the defaults. */
const spec = (rule: any = {}, extra: any = {}) => ({
  priorityLevelConfiguration: { name: 'global-default' },
  matchingPrecedence: 500,
  rules: [{ subjects: [groupSubject], nonResourceRules: [nonResource], ...rule }],
  ...extra,
});
const queue = (queuing: any) => ({ type: 'Limited', limited: { assuredConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing } } });

describe('bootstrap objects', () => {
  it('all validate (create and update)', () => {
    for (const o of [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]) {
      const obj = clone(o);
      fsRules.defaults!(obj);
      expect(fsRules.validateCreate!(obj)).toEqual([]);
      expect(fsRules.validateUpdate!(obj, clone(obj), '')).toEqual([]);
    }
    for (const o of [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]) {
      const obj = clone(o);
      plRules.defaults!(obj);
      expect(plRules.validateCreate!(obj)).toEqual([]);
      expect(plRules.validateUpdate!(obj, clone(obj), '')).toEqual([]);
    }
  });

  it('mandatory specs cannot change', () => {
    const exempt = clone(MANDATORY_FLOW_SCHEMAS.find((o) => o.metadata.name === 'exempt')!);
    // nil and empty lists are equal to Semantic.DeepEqual; clusterScope false equals omitted.
    exempt.spec.rules[0].nonResourceRules[0].extra = 'ignored';
    expect(fsRules.validateCreate!(exempt)).toEqual([]);
    exempt.spec.matchingPrecedence = 2;
    const errs = fsRules.validateCreate!(exempt);
    expect(errs).toHaveLength(1);
    expect(errs[0]).toMatchObject({ type: 'FieldValueInvalid', field: 'spec', detail: "spec of 'exempt' must equal the fixed value" });
    expect(errs[0].valueText).toMatch(/^flowcontrol\.FlowSchemaSpec\{PriorityLevelConfiguration:flowcontrol\.PriorityLevelConfigurationReference\{Name:"exempt"\}, MatchingPrecedence:2, DistinguisherMethod:\(\*flowcontrol\.FlowDistinguisherMethod\)\(nil\), Rules:\[\]flowcontrol\.PolicyRulesWithSubjects\{/);

    const catchAll = clone(MANDATORY_PRIORITY_LEVELS.find((o) => o.metadata.name === 'catch-all')!);
    catchAll.spec.limited.assuredConcurrencyShares = 6;
    expect(plRules.validateCreate!(catchAll)).toEqual([
      {
        type: 'FieldValueInvalid',
        field: 'spec',
        value: catchAll.spec,
        detail: "spec of 'catch-all' must equal the fixed value",
        valueText: 'flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000)}',
      },
    ]);
    // A distinguisher pointer to an empty struct is not nil.
    const catchAllFs = clone(MANDATORY_FLOW_SCHEMAS.find((o) => o.metadata.name === 'catch-all')!);
    catchAllFs.spec.distinguisherMethod = { type: 'ByNamespace' };
    expect(fsRules.validateCreate!(catchAllFs).map((e) => e.field)).toEqual(['spec']);
  });
});

describe('FlowSchema defaults', () => {
  it('defaults matchingPrecedence to 1000', () => {
    expect(fs('a', { priorityLevelConfiguration: { name: 'x' } }).spec.matchingPrecedence).toBe(1000);
    expect(fs('a', { matchingPrecedence: 0 }).spec.matchingPrecedence).toBe(1000);
    expect(fs('a', { matchingPrecedence: 7 }).spec.matchingPrecedence).toBe(7);
    expect(fs('a', undefined).spec).toEqual({ matchingPrecedence: 1000 });
  });
});

describe('FlowSchema spec', () => {
  it('accepts a valid schema', () => {
    expect(fsRules.validateCreate!(fs('fs', spec()))).toEqual([]);
    expect(fsRules.validateCreate!(fs('fs', spec({}, { matchingPrecedence: undefined, distinguisherMethod: { type: 'ByNamespace' } })))).toEqual([]);
  });

  it('checks matchingPrecedence', () => {
    expect(fsMessage(spec({}, { matchingPrecedence: -1 }))).toBe(`${FS}spec.matchingPrecedence: Invalid value: -1: must be a positive value`);
    expect(fsMessage(spec({}, { matchingPrecedence: 10001 }))).toBe(`${FS}spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000`);
    expect(fsRules.validateCreate!(fs('fs', spec({}, { matchingPrecedence: 10000 })))).toEqual([]);
    expect(fsMessage(spec({}, { matchingPrecedence: 1 }))).toBe(`${FS}spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1`);
  });

  it('checks the distinguisher method and priority level reference', () => {
    expect(fsMessage(spec({}, { distinguisherMethod: { type: 'ByGroup' } }))).toBe(
      `${FS}spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"ByGroup"}: supported values: "ByNamespace", "ByUser"`,
    );
    expect(fsMessage(spec({}, { priorityLevelConfiguration: null }))).toBe(`${FS}spec.priorityLevelConfiguration.name: Required value: must reference a priority level`);
    expect(fsMessage(spec({}, { priorityLevelConfiguration: { name: 'Bad_Name' } }))).toMatch(
      /^FlowSchema.* is invalid: spec\.priorityLevelConfiguration\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/,
    );
  });

  it('needs subjects and at least one kind of rule', () => {
    expect(fsMessage(spec({ subjects: [], nonResourceRules: null }))).toBe(
      `${FS}[spec.rules[0].subjects: Required value: subjects must contain at least one value, ` +
        'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty]',
    );
    // An empty rule list is allowed (the schema matches nothing).
    expect(fsRules.validateCreate!(fs('fs', spec({}, { rules: [] })))).toEqual([]);
  });
});

describe('FlowSchema subjects', () => {
  const subj = (s: any) => fsMessage(spec({ subjects: [s] }));
  it('checks the kind and its member', () => {
    expect(subj({ kind: 'Robot' })).toBe(`${FS}spec.rules[0].subjects[0].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"`);
    expect(subj(null)).toBe(`${FS}spec.rules[0].subjects[0].kind: Unsupported value: "": supported values: "Group", "ServiceAccount", "User"`);
    expect(subj({ kind: 'User' })).toBe(`${FS}spec.rules[0].subjects[0].user: Required value: user is required when subject kind is 'User'`);
    expect(subj({ kind: 'Group', group: {} })).toBe(`${FS}spec.rules[0].subjects[0].group.name: Required value`);
    expect(subj({ kind: 'User', user: { name: 'u' }, group: { name: 'g' }, serviceAccount: null })).toBe(
      `${FS}spec.rules[0].subjects[0].group: Forbidden: group is forbidden when subject kind is not 'Group'`,
    );
    expect(subj({ kind: 'Group', group: { name: 'g' }, serviceAccount: {}, user: {} })).toBe(
      `${FS}[spec.rules[0].subjects[0].serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount', ` +
        "spec.rules[0].subjects[0].user: Forbidden: user is forbidden when subject kind is not 'User']",
    );
  });

  it('checks service accounts', () => {
    expect(subj({ kind: 'ServiceAccount' })).toBe(`${FS}spec.rules[0].subjects[0].serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'`);
    expect(subj({ kind: 'ServiceAccount', serviceAccount: {} })).toBe(
      `${FS}[spec.rules[0].subjects[0].serviceAccount.name: Required value, spec.rules[0].subjects[0].serviceAccount.namespace: Required value: must specify namespace for service account]`,
    );
    expect(fsRules.validateCreate!(fs('fs', spec({ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns', name: '*' } }] })))).toEqual([]);
    expect(subj({ kind: 'ServiceAccount', serviceAccount: { namespace: 'Ns.x', name: 'Bad' } })).toMatch(
      /^.*\[spec\.rules\[0\]\.subjects\[0\]\.serviceAccount\.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain .*, spec\.rules\[0\]\.subjects\[0\]\.serviceAccount\.namespace: Invalid value: "Ns\.x": a lowercase RFC 1123 label .*\]$/,
    );
  });
});

describe('FlowSchema resource rules', () => {
  const rr = (r: any) => fsMessage(spec({ nonResourceRules: [], resourceRules: [r] }));
  const ok = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] };
  const P = 'spec.rules[0].resourceRules[0]';
  it('accepts valid rules', () => {
    expect(fsRules.validateCreate!(fs('fs', spec({ resourceRules: [ok, { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }] })))).toEqual([]);
  });

  it('checks verbs', () => {
    expect(rr({ ...ok, verbs: null })).toBe(`${FS}${P}.verbs: Required value: verbs must contain at least one value`);
    expect(rr({ ...ok, verbs: ['*', 'get'] })).toBe(`${FS}${P}.verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`);
    expect(rr({ ...ok, verbs: ['get', 'escalate'] })).toBe(
      `${FS}${P}.verbs: Unsupported value: []string{"get", "escalate"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"`,
    );
  });

  it('checks apiGroups, resources and namespaces', () => {
    expect(rr({ verbs: ['get'] })).toBe(
      `${FS}[${P}.apiGroups: Required value: resource rules must supply at least one api group, ` +
        `${P}.resources: Required value: resource rules must supply at least one resource, ` +
        `${P}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace]`,
    );
    expect(rr({ ...ok, apiGroups: ['*', 'apps'], resources: ['pods', '*'], namespaces: ['*', 'a'] })).toBe(
      `${FS}[${P}.apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups, ` +
        `${P}.resources: Invalid value: []string{"pods", "*"}: if '*' is present, must not specify other resources, ` +
        `${P}.namespaces: Invalid value: []string{"*", "a"}: if '*' is present, must not specify other namespaces]`,
    );
    expect(rr({ ...ok, namespaces: ['ok', 'Not_OK'] })).toBe(
      `${FS}${P}.namespaces[1]: Invalid value: "Not_OK": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    );
  });
});

describe('FlowSchema non-resource rules', () => {
  const nr = (r: any) => fsMessage(spec({ nonResourceRules: [r] }));
  const P = 'spec.rules[0].nonResourceRules[0]';
  it('checks verbs and URLs', () => {
    expect(nr({})).toBe(
      `${FS}[${P}.verbs: Required value: verbs must contain at least one value, ${P}.nonResourceURLs: Required value: nonResourceURLs must contain at least one value]`,
    );
    expect(nr({ verbs: ['get'], nonResourceURLs: ['*', '/x'] })).toBe(`${FS}${P}.nonResourceURLs: Invalid value: []string{"*", "/x"}: if '*' is present, must not specify other non-resource URLs`);
    expect(fsRules.validateCreate!(fs('fs', spec({ nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/', '/apis/*', '/healthz'] }] })))).toEqual([]);
    expect(nr({ verbs: ['get'], nonResourceURLs: ['', 'healthz', '/a b', '//x', '/a*', '/a/*/b/*'] })).toBe(
      `${FS}[${P}.nonResourceURLs[0]: Invalid value: "": must not be empty, ` +
        `${P}.nonResourceURLs[1]: Invalid value: "healthz": must start with slash, ` +
        `${P}.nonResourceURLs[2]: Invalid value: "/a b": must not contain white-space, ` +
        `${P}.nonResourceURLs[3]: Invalid value: "//x": must not contain double slash, ` +
        `${P}.nonResourceURLs[4]: Invalid value: "/a*": wildcard can only do suffix matching, ` +
        `${P}.nonResourceURLs[5]: Invalid value: "/a/*/b/*": wildcard can only do suffix matching]`,
    );
  });
});

describe('FlowSchema status and update', () => {
  it('checks status conditions; the status subresource checks only those', () => {
    const obj = fs('fs', spec());
    obj.status = { conditions: [{ type: 'Dangling' }, { type: 'Dangling' }, {}] };
    expect(fsRules.validateUpdate!(obj, obj, '')).toEqual([
      { type: 'FieldValueDuplicate', field: 'status.conditions[1].type', value: 'Dangling' },
      { type: 'FieldValueRequired', field: 'status.conditions[2].type', detail: 'must not be empty' },
    ]);
    obj.spec.matchingPrecedence = -5;
    obj.status = { conditions: [{ type: 'Dangling' }] };
    expect(fsRules.validateUpdate!(obj, obj, 'status')).toEqual([]);
    expect(fsRules.validateUpdate!(obj, obj, '').map((e) => e.field)).toEqual(['spec.matchingPrecedence']);
  });

  it('never throws on garbage', () => {
    for (const s of [null, 'x', 3, [], { rules: 'x' }, { rules: [null, 1, { subjects: [null], resourceRules: [null], nonResourceRules: [{ verbs: [null, 3] }] }] }]) {
      expect(() => fsRules.validateCreate!({ metadata: null, spec: s })).not.toThrow();
      expect(() => fsRules.defaults!({ spec: s })).not.toThrow();
    }
    expect(() => fsRules.validateCreate!({})).not.toThrow();
  });
});

describe('PriorityLevelConfiguration defaults', () => {
  it('fills shares and queuing parameters', () => {
    expect(pl('p', queue({})).spec.limited).toEqual({ assuredConcurrencyShares: 10, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } });
    expect(pl('p', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }).spec.limited.assuredConcurrencyShares).toBe(30);
    expect(pl('p', { type: 'Exempt' }).spec).toEqual({ type: 'Exempt' });
  });
});

describe('PriorityLevelConfiguration spec', () => {
  it('accepts valid levels', () => {
    expect(plRules.validateCreate!(pl('pl', queue({ queues: 128, handSize: 6, queueLengthLimit: 50 })))).toEqual([]);
    expect(plRules.validateCreate!(pl('pl', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }))).toEqual([]);
  });

  it('checks the type', () => {
    expect(plMessage({ type: 'Lazy' })).toBe(`${PL}spec.type: Unsupported value: "Lazy": supported values: "Exempt", "Limited"`);
    expect(plMessage({ type: 'Exempt', limited: {} })).toBe(
      `${PL}[spec.type: Invalid value: "Exempt": type must be 'Exempt' if and only if name is 'exempt', spec.limited: Forbidden: must be nil if the type is not Limited]`,
    );
    expect(plMessage({ type: 'Limited' })).toBe(`${PL}spec.limited: Required value: must not be empty when type is Limited`);
    expect(plMessage({ type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }, 'exempt')).toMatch(
      /^PriorityLevelConfiguration.* "exempt" is invalid: \[spec\.type: Invalid value: "Limited": type must be 'Exempt' if and only if name is 'exempt', spec: Invalid value: flowcontrol\.PriorityLevelConfigurationSpec\{Type:"Limited", .*: spec of 'exempt' must equal the fixed value\]$/,
    );
  });

  it('checks limited and the limit response', () => {
    expect(plMessage({ type: 'Limited', limited: { assuredConcurrencyShares: -1, limitResponse: { type: 'Reject', queuing: {} } } })).toBe(
      `${PL}[spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive, spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited]`,
    );
    expect(plMessage({ type: 'Limited', limited: { limitResponse: null } })).toBe(`${PL}spec.limited.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"`);
    expect(plMessage({ type: 'Limited', limited: { limitResponse: { type: 'Queue' } } })).toBe(
      `${PL}spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited`,
    );
  });

  it('checks queuing', () => {
    const Q = 'spec.limited.limitResponse.queuing';
    expect(plMessage(queue({ queues: -1, handSize: -2, queueLengthLimit: -3 }))).toBe(
      `${PL}[${Q}.queueLengthLimit: Invalid value: -3: must be positive, ${Q}.queues: Invalid value: -1: must be positive, ${Q}.handSize: Invalid value: -2: must be positive]`,
    );
    expect(plMessage(queue({ queues: 10000001, handSize: 1 }))).toBe(`${PL}${Q}.queues: Invalid value: 10000001: must not be greater than 10000000`);
    expect(plMessage(queue({ queues: 4, handSize: 5 }))).toBe(`${PL}${Q}.handSize: Invalid value: 5: should not be greater than queues (4)`);
    // ceil(log2(128) * 9) = 63 > 60; ceil(log2(128) * 8) = 56.
    expect(plMessage(queue({ queues: 128, handSize: 9 }))).toBe(`${PL}${Q}.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60`);
    expect(plRules.validateCreate!(pl('pl', queue({ queues: 128, handSize: 8 })))).toEqual([]);
    expect(plRules.validateCreate!(pl('pl', queue({ queues: 1, handSize: 1 })))).toEqual([]);
  });

  it('never throws on garbage', () => {
    for (const s of [null, 'x', 3, [], { type: 'Limited', limited: 'x' }, { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: [] } } }]) {
      expect(() => plRules.validateCreate!({ metadata: null, spec: s })).not.toThrow();
      expect(() => plRules.defaults!({ spec: s })).not.toThrow();
    }
    expect(() => plRules.validateUpdate!({}, {}, 'status')).not.toThrow();
  });
});
