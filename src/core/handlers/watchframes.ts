// Encoding watch events. Each store event is turned into a JSON line at most once per served
// version (kind/apiVersion prefix), and the same string goes to every watcher.
import type { StoreEvent } from '../storage/types';
import { withTypeMeta } from '../registry/objects';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** Replace the object's resourceVersion in stored text (metadata comes first, so the first match is metadata's). */
export function setStoredResourceVersion(text: string, rv: number): string {
  const marker = '"resourceVersion":"';
  const i = text.indexOf(marker);
  if (i < 0) return text;
  const start = i + marker.length;
  const end = text.indexOf('"', start);
  return text.slice(0, start) + String(rv) + text.slice(end);
}

/** The object an event shows: the new value, or for a delete the last value at the delete's revision. */
export function eventObjectText(ev: StoreEvent): string {
  if (ev.type === 'put') return ev.value as string;
  return setStoredResourceVersion(ev.prevValue as string, ev.rev);
}

/**
 * The lines of the event being fanned out. Only the latest event's are kept: the hub hands one
 * event to every watcher before the next, so that is all the sharing there is to have, and a
 * cache keyed by every event the history window still holds kept a second, wrapped copy of each
 * object's text for as long (decision 0044: 14 KB per pod of a rolled-out Deployment). A watcher
 * replaying history encodes its lines again.
 */
let cachedEvent: StoreEvent | undefined;
let cachedLines = new Map<string, string>();

/** `{"type":"...","object":{...}}\n` for the event's own type, shared by the watchers of the event being delivered. */
export function encodeJsonLine(ev: StoreEvent, type: WatchEventType, text: string, kind: string, apiVersion: string): string {
  const cacheKey = `${type}|${kind}|${apiVersion}`;
  if (cachedEvent !== ev) {
    cachedEvent = ev;
    cachedLines = new Map();
  }
  let line = cachedLines.get(cacheKey);
  if (line === undefined) {
    line = `{"type":"${type}","object":${withTypeMeta(text, kind, apiVersion)}}\n`;
    cachedLines.set(cacheKey, line);
  }
  return line;
}

export function jsonLine(type: WatchEventType, objectJson: string): string {
  return `{"type":"${type}","object":${objectJson}}\n`;
}
