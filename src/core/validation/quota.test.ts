import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const rq = rulesFor('', 'ResourceQuota')!;
const lr = rulesFor('', 'LimitRange')!;
const rqMsg = (q: any, old?: any, sub = '') => invalidStatus('', 'ResourceQuota', 'q', old ? rq.validateUpdate!(q, old, sub) : rq.validateCreate!(q)).message;
const lrErrors = (spec: any) => {
  const o: any = { metadata: { name: 'l' }, spec };
  lr.defaults!(o);
  return lr.validateCreate!(o);
};
const lrMsg = (spec: any) => invalidStatus('', 'LimitRange', 'l', lrErrors(spec)).message;

describe('ResourceQuota', () => {
  it('accepts what people write', () => {
    const q = { spec: { hard: { pods: '10', 'requests.cpu': '1', 'limits.memory': '1Gi', 'count/deployments.apps': '5', 'requests.storage': '10Gi' } } };
    expect(rq.validateCreate!(q)).toEqual([]);
    const scoped = { spec: { hard: { pods: '5', cpu: '2' }, scopes: ['NotTerminating', 'NotBestEffort'] } };
    expect(rq.validateCreate!(scoped)).toEqual([]);
    const prio = { spec: { hard: { pods: '5' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } } };
    expect(rq.validateCreate!(prio)).toEqual([]);
  });

  it('scopes: unsupported, applied to a resource they cannot count, conflicting', () => {
    expect(rqMsg({ spec: { hard: { pods: '1' }, scopes: ['Nope'] } })).toBe('ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"Nope"}: unsupported scope');
    expect(rqMsg({ spec: { hard: { cpu: '1', pods: '1', secrets: '1' }, scopes: ['BestEffort'] } })).toBe(
      // One error per resource it cannot count (cpu, secrets); the message names it once, as ToAggregate drops repeats.
      'ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"BestEffort"}: unsupported scope applied to resource',
    );
    expect(rqMsg({ spec: { hard: { pods: '1' }, scopes: ['Terminating', 'NotTerminating'] } })).toBe(
      'ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"Terminating", "NotTerminating"}: conflicting scopes',
    );
  });

  it('scope selectors: operators and values', () => {
    const sel = (e: object) => ({ spec: { hard: { pods: '1' }, scopeSelector: { matchExpressions: [e] } } });
    expect(rqMsg(sel({ scopeName: 'BestEffort', operator: 'In', values: ['x'] }))).toBe(
      "ResourceQuota \"q\" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
    );
    expect(rqMsg(sel({ scopeName: 'PriorityClass', operator: 'In' }))).toBe(
      "ResourceQuota \"q\" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    );
    expect(rqMsg(sel({ scopeName: 'PriorityClass', operator: 'Exists', values: ['a'] }))).toBe(
      'ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.values: Invalid value: []string{"a"}: must be no value when `operator` is \'Exist\' or \'DoesNotExist\' for scope selector',
    );
    expect(rqMsg({ spec: { hard: { 'requests.storage': '1Gi' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }] } } })).toBe(
      'ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: core.ScopeSelector{MatchExpressions:[]core.ScopedResourceSelectorRequirement{core.ScopedResourceSelectorRequirement{ScopeName:"PriorityClass", Operator:"In", Values:[]string{"high"}}}}: unsupported scope applied to resource',
    );
  });

  it('updates: scopes are immutable (as a set); status writes check status names', () => {
    const old = { spec: { hard: { pods: '1' }, scopes: ['BestEffort'] } };
    expect(rq.validateUpdate!({ spec: { hard: { pods: '2' }, scopes: ['BestEffort'] } }, old, '')).toEqual([]);
    expect(rqMsg({ spec: { hard: { pods: '1' }, scopes: ['NotBestEffort'] } }, old)).toBe(
      'ResourceQuota "q" is invalid: spec.scopes: Invalid value: []core.ResourceQuotaScope{"NotBestEffort"}: field is immutable',
    );
    expect(rqMsg({ spec: old.spec, status: { hard: { bogus: '1' } } }, old, 'status')).toBe(
      'ResourceQuota "q" is invalid: [status.hard[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified, status.hard[bogus]: Invalid value: "bogus": must be a standard resource for quota]',
    );
  });
});

describe('LimitRange', () => {
  it('defaults a Container item: default from max, defaultRequest from default, then min', () => {
    const o: any = { spec: { limits: [{ type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m', 'ephemeral-storage': '1Gi' }, default: { memory: '512Mi' } }] } };
    lr.defaults!(o);
    expect(o.spec.limits[0].default).toEqual({ memory: '512Mi', cpu: '2' });
    expect(o.spec.limits[0].defaultRequest).toEqual({ memory: '512Mi', cpu: '2', 'ephemeral-storage': '1Gi' });
    expect(lr.validateCreate!(o)).toEqual([]);
  });

  it('leaves Pod and PVC items, and Container items with nothing to copy, alone', () => {
    const o: any = { spec: { limits: [{ type: 'Pod', max: { cpu: '2' } }, { type: 'PersistentVolumeClaim', max: { storage: '5Gi' } }, { type: 'Container' }] } };
    lr.defaults!(o);
    expect(o.spec.limits).toEqual([{ type: 'Pod', max: { cpu: '2' } }, { type: 'PersistentVolumeClaim', max: { storage: '5Gi' } }, { type: 'Container' }]);
  });

  it('orders min ≤ defaultRequest ≤ default ≤ max, printing Go quantities', () => {
    expect(lrMsg({ limits: [{ type: 'Container', min: { cpu: '500m' }, max: { cpu: '200m' } }] })).toBe(
      'LimitRange "l" is invalid: [spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: min value 500m is greater than max value 200m, ' +
        'spec.limits[0].defaultRequest[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:200, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"200m", Format:"DecimalSI"}: min value 500m is greater than default request value 200m, ' +
        'spec.limits[0].default[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: min value 500m is greater than default value 200m]',
    );
    expect(lrMsg({ limits: [{ type: 'Container', default: { memory: '256Mi' }, defaultRequest: { memory: '512Mi' } }] })).toBe(
      'LimitRange "l" is invalid: spec.limits[0].defaultRequest[memory]: Invalid value: resource.Quantity{i:resource.int64Amount{value:536870912, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"512Mi", Format:"BinarySI"}: default request value 512Mi is greater than default limit value 256Mi',
    );
  });

  it('maxLimitRequestRatio: at least 1 and at most max/min', () => {
    expect(lrMsg({ limits: [{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }] })).toContain('spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}: ratio 500m is less than 1');
    expect(lrMsg({ limits: [{ type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } }] })).toBe(
      'LimitRange "l" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:3, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"3", Format:"DecimalSI"}: ratio 3 is greater than max/min = 2.000000',
    );
  });

  it('per-type rules: Pod has no defaults, PVC needs a storage bound, types are known, no duplicates', () => {
    expect(lrMsg({ limits: [{ type: 'Pod', default: { cpu: '1' }, defaultRequest: { cpu: '1' } }] })).toBe(
      "LimitRange \"l\" is invalid: [spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod', spec.limits[0].defaultRequest: Forbidden: may not be specified when `type` is 'Pod']",
    );
    expect(lrMsg({ limits: [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }] })).toBe(
      'LimitRange "l" is invalid: spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
    );
    expect(lrMsg({ limits: [{ type: 'Node' }] })).toBe('LimitRange "l" is invalid: spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified');
    expect(lrMsg({ limits: [{ type: 'Container' }, { type: 'Container' }] })).toBe('LimitRange "l" is invalid: spec.limits[1].type: Duplicate value: "Container"');
  });

  it('resource names: containers take compute resources, other types any standard one', () => {
    expect(lrMsg({ limits: [{ type: 'Container', max: { storage: '1Gi' } }] })).toBe(
      'LimitRange "l" is invalid: [spec.limits[0].max[storage]: Invalid value: "storage": must be a standard resource for containers, spec.limits[0].default[storage]: Invalid value: "storage": must be a standard resource for containers, spec.limits[0].defaultRequest[storage]: Invalid value: "storage": must be a standard resource for containers]',
    );
    expect(lrErrors({ limits: [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }] })).toEqual([]);
  });

  it('non-overcommitable resources need default == defaultRequest', () => {
    expect(lrMsg({ limits: [{ type: 'Container', default: { 'example.com/gpu': '2' }, defaultRequest: { 'example.com/gpu': '1' } }] })).toBe(
      'LimitRange "l" is invalid: spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1", Format:"DecimalSI"}: default value 2 must equal to defaultRequest value 1 in example.com/gpu',
    );
  });
});
