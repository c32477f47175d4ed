import { describe, expect, it } from 'vitest';
import { eventsV1Rules } from './events-v1';

const event = (over: Record<string, unknown> = {}) => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'e', namespace: 'default' },
  eventTime: '2021-01-01T00:00:00.000000Z',
  reportingController: 'example.com/ctrl',
  reportingInstance: 'i-1',
  action: 'Scale',
  reason: 'Scaled',
  regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
  type: 'Normal',
  ...over,
});
const fields = (errs: Array<{ field: string; type: string; detail?: string }>) => errs.map((e) => `${e.type} ${e.field} ${e.detail ?? ''}`.trim());

describe('events.k8s.io Event validation', () => {
  it('accepts a well-formed v1 event', () => {
    expect(eventsV1Rules.validateCreate!(event())).toEqual([]);
  });

  it('v1 is strict on create: eventTime, type, the deprecated fields (under their internal names), the series', () => {
    const errs = eventsV1Rules.validateCreate!(event({ eventTime: undefined, type: 'Odd', deprecatedCount: 3, deprecatedSource: { component: 'c' }, series: { count: 1 } }));
    expect(fields(errs)).toEqual([
      'FieldValueInvalid series.count should be at least 2',
      'FieldValueRequired series.lastObservedTime',
      'FieldValueRequired eventTime',
      'FieldValueInvalid type has invalid value: Odd',
      'FieldValueInvalid count needs to be unset',
      'FieldValueInvalid source needs to be unset',
    ]);
  });

  it('v1beta1 gets only the legacy checks', () => {
    const errs = eventsV1Rules.validateCreate!(event({ apiVersion: 'events.k8s.io/v1beta1', type: 'Odd', reportingController: '', deprecatedCount: 3 }));
    expect(fields(errs)[0]).toBe('FieldValueRequired reportingController');
    expect(fields(errs).some((f) => f.includes('type') || f.includes('deprecated'))).toBe(false);
  });
});

describe('through the API', () => {
  it('an events.k8s.io/v1 event with a bad type is refused; the same through v1beta1 is stored', async () => {
    const { startTestServer } = await import('../testing/api-server');
    const c = await startTestServer();
    try {
      const bad = await c.post('/apis/events.k8s.io/v1/namespaces/default/events', event({ metadata: { name: 'odd' }, type: 'Odd' }));
      expect(bad.status).toBe(422);
      expect(bad.json.message).toBe('Event.events.k8s.io "odd" is invalid: type: Invalid value: "": has invalid value: Odd');
      const beta = await c.post('/apis/events.k8s.io/v1beta1/namespaces/default/events', event({ apiVersion: 'events.k8s.io/v1beta1', metadata: { name: 'odd' }, type: 'Odd' }));
      expect(beta.status).toBe(201);
    } finally {
      await c.close();
    }
  });
});

describe('events.k8s.io/v1 updates (ValidateEventUpdate)', () => {
  it('every event field is immutable, reported under the internal names in upstream order', () => {
    const old = event({ note: 'n', related: { kind: 'Node', name: 'x' }, series: { count: 2, lastObservedTime: '2021-01-01T00:00:01.000000Z' } });
    const changed = event({
      regarding: { kind: 'Pod', name: 'q', namespace: 'default' },
      note: 'changed',
      reason: 'Other',
      type: 'Warning',
      eventTime: '2021-01-01T00:00:00.500000Z',
      action: 'Act',
      related: undefined,
      reportingInstance: 'i-2',
      series: { count: 3, lastObservedTime: '2021-01-01T00:00:02.000000Z' },
    });
    expect(eventsV1Rules.validateUpdate!(changed, old).map((e) => `${e.field}: ${e.valueText}`)).toEqual([
      'involvedObject: core.ObjectReference{Kind:"Pod", Namespace:"default", Name:"q", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}',
      'reason: "Other"',
      'message: "changed"',
      'reason: "Other"',
      'type: "Warning"',
      'eventTime: 2021-01-01 00:00:00.5 +0000 UTC',
      'action: "Act"',
      'related: null',
      'reportingInstance: "i-2"',
    ]);
  });

  it('the same values in another spelling are no change; v1beta1 updates get only the legacy checks', () => {
    const old = event({ deprecatedSource: {}, regarding: { kind: 'Pod', name: 'p', namespace: 'default' } });
    const same = event({ deprecatedSource: { component: '' }, regarding: { kind: 'Pod', name: 'p', namespace: 'default', uid: '' }, eventTime: '2021-01-01T01:00:00.000000+01:00' });
    expect(eventsV1Rules.validateUpdate!(same, old)).toEqual([]);
    const beta = (o: Record<string, unknown>) => ({ ...o, apiVersion: 'events.k8s.io/v1beta1' });
    expect(eventsV1Rules.validateUpdate!(beta(event({ reason: 'Other', note: 'x' })), beta(old))).toEqual([]);
  });

  it('a changed deprecated time prints as Go prints a time', () => {
    const errs = eventsV1Rules.validateUpdate!(event({ deprecatedFirstTimestamp: '2020-02-03T04:05:06Z', deprecatedCount: 4 }), event());
    expect(errs.map((e) => `${e.field}: ${e.valueText}`)).toEqual(['firstTimestamp: 2020-02-03 04:05:06 +0000 UTC', 'count: 4']);
  });
});

describe('an events.k8s.io/v1 update through the API', () => {
  it('is refused when it changes the note or the reason; the message names a repeated error once', async () => {
    const { startTestServer } = await import('../testing/api-server');
    const c = await startTestServer();
    try {
      const url = '/apis/events.k8s.io/v1/namespaces/default/events';
      const made = await c.post(url, event({ metadata: { name: 'upd' }, eventTime: '2021-01-01T00:00:00.000000Z' }));
      expect(made.status).toBe(201);
      const reason = await c.put(`${url}/upd`, { ...made.json, reason: 'Other' });
      expect(reason.status).toBe(422);
      expect(reason.json.message).toBe('Event.events.k8s.io "upd" is invalid: reason: Invalid value: "Other": field is immutable');
      expect(reason.json.details.causes).toHaveLength(2);
      const both = await c.put(`${url}/upd`, { ...made.json, reason: 'Other', note: 'x' });
      expect(both.json.message).toBe('Event.events.k8s.io "upd" is invalid: [reason: Invalid value: "Other": field is immutable, message: Invalid value: "x": field is immutable]');
      const labels = await c.put(`${url}/upd`, { ...made.json, metadata: { ...made.json.metadata, labels: { a: 'b' } } });
      expect(labels.status).toBe(200);
      // The core API has no such rule.
      const core = await c.get('/api/v1/namespaces/default/events/upd');
      expect((await c.put('/api/v1/namespaces/default/events/upd', { ...core.json, reason: 'Other' })).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
