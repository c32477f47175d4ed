// A watch line as the shared informer keeps it: parsed without metadata.managedFields, which
// it drops anyway (informer-transform.ts). The entries are a third of a running pod's line and
// the most objects per character in it, so cutting them out of the text before JSON.parse saves
// about 30 % of a pod line's decoding and the garbage of the parsed entries (decision 0054).
//
// The cut is exact for the server's built-in objects (decodesWithoutManagedFields says which
// collections): they are written in Go's field order, where
// managedFields is metadata's last member and the first member anywhere named so (the members
// before it are strings, labels, annotations and owner references, and a quote inside a string
// is escaped); its entries hold objects and scalars only, so the array's closing bracket is the
// first `]` after it unless a string inside has one (no field path, manager or version of a
// built-in does). Whatever does not look as expected (no `}` before the bracket, no `},"` after
// it, a cut text JSON.parse refuses) is parsed whole and stripped.
import type { WatchEvent } from './client';
import { stripManagedFields } from './informer-transform';

const MEMBER = ',"managedFields":[';

/** The line without its object's managedFields member, or undefined when it is not in the shape the cut needs. */
export function cutManagedFields(line: string): string | undefined {
  const start = line.indexOf(MEMBER);
  if (start < 0) return undefined;
  const close = line.indexOf(']', start + MEMBER.length);
  if (close < 0 || line.charCodeAt(close - 1) !== 125 || !line.startsWith('},"', close + 1)) return undefined;
  return line.slice(0, start) + line.slice(close + 1);
}

/** The line's event with its object's managedFields left out. */
export function decodeWatchLine(line: string): WatchEvent {
  const cut = cutManagedFields(line);
  if (cut !== undefined) {
    try {
      return JSON.parse(cut) as WatchEvent;
    } catch {
      // Not the shape read above after all: the whole line, below.
    }
  }
  const e = JSON.parse(line) as WatchEvent;
  return e.object ? { ...e, object: stripManagedFields(e.object) } : e;
}

/**
 * Collections whose objects are built-ins for sure: the core group and the groups without a dot
 * (apps, batch, autoscaling, policy). A custom resource's group must have a dot (kube's CRD
 * validation), and its objects are kept in the order they were sent, so they are parsed whole.
 */
export function decodesWithoutManagedFields(path: string): boolean {
  return /^\/api\/v1\/|^\/apis\/[^./]+\//.test(path);
}
