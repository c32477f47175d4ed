import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { cronScheduleError } from './index';
import { rulesFor } from '../kinds';

const job = rulesFor('batch', 'Job')!;
const cron = rulesFor('batch', 'CronJob')!;
const podSpec = () => ({ containers: [{ name: 'c', image: 'busybox:1.36' }], restartPolicy: 'Never' });

describe('Job', () => {
  it('defaults and generates the selector from the uid (golden)', () => {
    const j: any = { metadata: { name: 'pi', namespace: 'default', uid: 'u-1' }, spec: { template: { spec: podSpec() } } };
    job.defaults!(j);
    expect(j.metadata.labels).toEqual({ 'controller-uid': 'u-1', 'job-name': 'pi' });
    expect(j.spec).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      selector: { matchLabels: { 'controller-uid': 'u-1' } },
      template: { metadata: { labels: { 'controller-uid': 'u-1', 'job-name': 'pi' } } },
    });
    expect(job.validateCreate!(j)).toEqual([]);
  });

  it('requires OnFailure or Never', () => {
    const j: any = { metadata: { name: 'pi', namespace: 'default', uid: 'u-1' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } };
    job.defaults!(j);
    expect(invalidStatus('batch', 'Job', 'pi', job.validateCreate!(j)).message).toBe(
      'Job.batch "pi" is invalid: spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    );
  });

  it('respects manualSelector and checks the match', () => {
    const j: any = {
      metadata: { name: 'm', uid: 'u' },
      spec: { manualSelector: true, selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'c' } }, spec: podSpec() } },
    };
    job.defaults!(j);
    expect(j.spec.template.metadata.labels).toEqual({ a: 'c' });
    expect(job.validateCreate!(j).map((e) => e.field)).toEqual(['spec.template.metadata.labels']);
  });

  it('keeps completions and template immutable', () => {
    const old: any = { metadata: { name: 'pi', uid: 'u' }, spec: { template: { spec: podSpec() } } };
    job.defaults!(old);
    const next = JSON.parse(JSON.stringify(old));
    next.spec.completions = 3;
    next.spec.template.spec.containers[0].image = 'busybox:2';
    expect(job.validateUpdate!(next, old).map((e) => `${e.field}: ${e.detail}`)).toEqual(['spec.completions: field is immutable', 'spec.template: field is immutable']);
  });
});

describe('CronJob', () => {
  it('defaults (golden)', () => {
    const c: any = { metadata: { name: 'c' }, spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: podSpec() } } } } };
    cron.defaults!(c);
    expect(c.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    expect(c.spec.jobTemplate.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
    expect(c.spec.jobTemplate.spec.completions).toBeUndefined();
    expect(cron.validateCreate!(c)).toEqual([]);
  });

  it('validates schedule, policy and name length', () => {
    const c: any = { metadata: { name: 'x'.repeat(53) }, spec: { schedule: 'every minute', concurrencyPolicy: 'Sometimes', jobTemplate: { spec: { template: { spec: podSpec() } } } } };
    cron.defaults!(c);
    expect(cron.validateCreate!(c)).toEqual([
      { type: 'FieldValueInvalid', field: 'metadata.name', value: 'x'.repeat(53), detail: 'must be no more than 52 characters' },
      { type: 'FieldValueInvalid', field: 'spec.schedule', value: 'every minute', detail: 'expected exactly 5 fields, found 2: [every minute]' },
      { type: 'FieldValueNotSupported', field: 'spec.concurrencyPolicy', value: 'Sometimes', supported: ['Allow', 'Forbid', 'Replace'] },
    ]);
  });

  it.each([
    ['0 0 * * *', undefined],
    ['@hourly', undefined],
    ['@every 1h30m', undefined],
    ['*/15 9-17 * JAN-MAR mon-fri', undefined],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['@often', 'unrecognized descriptor: @often'],
  ])('cron %j', (spec, want) => expect(cronScheduleError(spec)).toBe(want));
});
