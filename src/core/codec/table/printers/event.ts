// Event rows (core/v1 and events.k8s.io/v1 share one printer upstream): LAST SEEN from the
// series, the last or the first timestamp; OBJECT as lower-cased kind/name.
import { NAME_COLUMN, asRecord, column, int, str } from '../format';
import { age } from '../time';
import type { KubeObject, Printer } from '../types';

/** Maps an events.k8s.io/v1 Event onto the core/v1 field names the printer reads. */
export function eventsV1ToCore(ev: KubeObject): KubeObject {
  return {
    metadata: ev.metadata,
    type: ev.type,
    reason: ev.reason,
    message: ev.note,
    involvedObject: ev.regarding,
    source: ev.deprecatedSource,
    reportingComponent: ev.reportingController,
    reportingInstance: ev.reportingInstance,
    firstTimestamp: ev.deprecatedFirstTimestamp,
    lastTimestamp: ev.deprecatedLastTimestamp,
    count: ev.deprecatedCount,
    series: ev.series,
    eventTime: ev.eventTime,
  };
}

function eventSource(ev: KubeObject): string {
  const source = asRecord(ev.source);
  const component = str(source.component) || str(ev.reportingComponent);
  const instance = str(source.host) || str(ev.reportingInstance);
  return instance === '' ? component : `${component}, ${instance}`;
}

function printEvent(ev: KubeObject, now: number) {
  const first = ev.firstTimestamp ? age(ev.firstTimestamp, now) : age(ev.eventTime, now);
  let last = ev.lastTimestamp ? age(ev.lastTimestamp, now) : first;
  let count = int(ev.count);
  if (ev.series) {
    const series = asRecord(ev.series);
    last = age(series.lastObservedTime, now);
    count = int(series.count);
  } else if (count === 0) {
    // Singleton events of the new API carry no count.
    count = 1;
  }
  const involved = asRecord(ev.involvedObject);
  const kind = str(involved.kind).toLowerCase();
  const target = str(involved.name) !== '' ? `${kind}/${str(involved.name)}` : kind;
  return {
    cells: [
      last,
      str(ev.type),
      str(ev.reason),
      target,
      str(involved.fieldPath),
      eventSource(ev),
      str(ev.message).trim(),
      first,
      count,
      str(asRecord(ev.metadata).name),
    ],
  };
}

const columns = [
  column('Last Seen', 'string', 'Time since the event was last observed.'),
  column('Type', 'string', 'Normal or Warning.'),
  column('Reason', 'string', 'Short machine-readable reason.'),
  column('Object', 'string', 'Object the event is about, as kind/name.'),
  column('Subobject', 'string', 'Part of the object the event is about (fieldPath).', 1),
  column('Source', 'string', 'Component (and host) that reported the event.', 1),
  column('Message', 'string', 'Human-readable description.'),
  column('First Seen', 'string', 'Time since the event was first observed.', 1),
  column('Count', 'string', 'How many times the event occurred.', 1),
  { ...NAME_COLUMN, priority: 1 },
];

export const eventPrinter: Printer = { columns, print: printEvent };

export const eventsV1Printer: Printer = { columns, print: (ev, now) => printEvent(eventsV1ToCore(ev), now) };
