import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { goQuantity, isExtendedResourceName, validateQuotaResourceName, validateResourceQuantityValue } from './resource-names';

const msg = (errs: ReturnType<typeof validateQuotaResourceName>) => invalidStatus('', 'ResourceQuota', 'q', errs).message;

describe('resource names', () => {
  it('accepts standard quota names, hugepages, count/ and extended names', () => {
    for (const n of ['pods', 'requests.cpu', 'limits.memory', 'services.nodeports', 'requests.storage', 'hugepages-2Mi', 'requests.hugepages-1Gi', 'count/deployments.apps', 'requests.nvidia.com/gpu']) {
      expect(validateQuotaResourceName(n, `spec.hard[${n}]`)).toEqual([]);
    }
  });

  it('refuses an unknown unprefixed name twice, as v1.23 does', () => {
    expect(msg(validateQuotaResourceName('limits.pods', 'spec.hard[limits.pods]'))).toBe(
      'ResourceQuota "q" is invalid: [spec.hard[limits.pods]: Invalid value: "limits.pods": must be a standard resource type or fully qualified, spec.hard[limits.pods]: Invalid value: "limits.pods": must be a standard resource for quota]',
    );
    // `storage` is a standard resource but not one quota tracks.
    expect(msg(validateQuotaResourceName('storage', 'spec.hard[storage]'))).toBe('ResourceQuota "q" is invalid: spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota');
  });

  it('extended names are domain-prefixed, not kubernetes.io, not requests.', () => {
    expect(isExtendedResourceName('nvidia.com/gpu')).toBe(true);
    expect(isExtendedResourceName('count/pods')).toBe(true);
    expect(isExtendedResourceName('kubernetes.io/foo')).toBe(false);
    expect(isExtendedResourceName('requests.nvidia.com/gpu')).toBe(false);
    expect(isExtendedResourceName('cpu')).toBe(false);
  });

  it('quantities: non-negative, and whole units for countable resources', () => {
    expect(msg(validateResourceQuantityValue('cpu', '-1', 'spec.hard[cpu]'))).toBe('ResourceQuota "q" is invalid: spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0');
    expect(validateResourceQuantityValue('cpu', '500m', 'spec.hard[cpu]')).toEqual([]);
    expect(validateResourceQuantityValue('pods', '2k', 'spec.hard[pods]')).toEqual([]);
    expect(msg(validateResourceQuantityValue('count/pods', '1500m', 'spec.hard[count/pods]'))).toBe(
      'ResourceQuota "q" is invalid: spec.hard[count/pods]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}: must be an integer',
    );
  });

  it('prints a quantity as Go prints the struct', () => {
    expect(goQuantity('1Gi')).toBe('resource.Quantity{i:resource.int64Amount{value:1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1Gi", Format:"BinarySI"}');
    expect(goQuantity('0')).toBe('resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"0", Format:"DecimalSI"}');
    expect(goQuantity(0.5)).toBe('resource.Quantity{i:resource.int64Amount{value:500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"500m", Format:"DecimalSI"}');
    // Past ParseQuantity's int64 budget Go keeps an inf.Dec pointer: the text stands in for it.
    expect(goQuantity('2Pi')).toBe('"2Pi"');
  });
});
