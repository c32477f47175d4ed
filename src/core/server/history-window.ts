// The --history-window setting (both hosts): how long committed changes stay readable for watch
// resume, continue tokens and reads at past revisions — the part etcd's compaction plays for a
// real cluster. A short window is how a learner sees 410 Gone and the relist that follows.
import { parseDuration } from '../codec/protobuf/time';
import { StartupError } from './runtime-config';

/** A positive Go duration (`5m`, `90s`, `1h30m`) in milliseconds; StartupError otherwise. */
export function parseHistoryWindow(text: string): number {
  let ns: number;
  try {
    ns = parseDuration(text);
  } catch {
    throw new StartupError(`time: invalid duration ${JSON.stringify(text)}`);
  }
  if (!(ns > 0)) throw new StartupError('must be positive');
  return ns / 1e6;
}
