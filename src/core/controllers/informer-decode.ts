// How the shared informer reads a watch line: the event's object without metadata.managedFields,
// cut out of the text before it is parsed. The informer drops managedFields anyway
// (informer-transform.ts); for a running pod they are a third to a half of its text, and
// parsing them built hundreds of small objects per event only to throw them away. The result
// is what JSON.parse of the whole line gives minus that one member; text the scanner does not
// read (an escaped key) is parsed whole, and the informer's stripManagedFields drops them then.
import type { WatchEvent } from './client';
import { findKey, findMember, skipValue, skipWs } from './json-text-keys';

const COMMA = 44;

/** The line's text without `object.metadata.managedFields` (and the comma that joined it), or the line as it is. */
export function withoutManagedFields(line: string): string {
  // The key's text appears only where it is a key: inside JSON strings every quote is escaped.
  if (!line.includes('"managedFields"')) return line;
  const object = findKey(line, skipWs(line, 0), 'object');
  if (object === undefined || object < 0) return line;
  const meta = findKey(line, object, 'metadata');
  if (meta === undefined || meta < 0) return line;
  const member = findMember(line, meta, 'managedFields');
  if (member === undefined || member === -1) return line;
  const end = skipValue(line, member.valueAt);
  if (end < 0) return line;
  let from = member.keyAt;
  let to = skipWs(line, end);
  let before = from - 1;
  while (before > meta && /\s/.test(line[before])) before--;
  // A member after another takes the comma before it; the first member, the comma after it.
  if (line.charCodeAt(before) === COMMA) from = before;
  else if (line.charCodeAt(to) === COMMA) to = skipWs(line, to + 1);
  return line.slice(0, from) + line.slice(to);
}

export function decodeWatchLine(line: string): WatchEvent {
  return JSON.parse(withoutManagedFields(line)) as WatchEvent;
}
