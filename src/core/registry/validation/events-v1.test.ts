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

  it('v1 is strict on create: eventTime, type, the deprecated fields, the series', () => {
    const errs = eventsV1Rules.validateCreate!(event({ eventTime: undefined, type: 'Odd', deprecatedCount: 3, deprecatedSource: { component: 'c' }, series: { count: 1 } }));
    expect(fields(errs)).toEqual([
      'FieldValueInvalid series.count should be at least 2',
      'FieldValueRequired series.lastObservedTime',
      'FieldValueRequired eventTime',
      'FieldValueInvalid type has invalid value: Odd',
      'FieldValueInvalid deprecatedCount needs to be unset',
      'FieldValueInvalid deprecatedSource needs to be unset',
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
    const { startTestServer } = await import('../../server/testing');
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
