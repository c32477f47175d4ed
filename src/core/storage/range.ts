// Range reads: the current state straight from the key index, or a past revision rebuilt from the
// index plus the history window. Both feed one collector that applies after/filter/limit and
// works out `more` and `remaining` the same way.

import type { HistoryWindow } from './history';
import type { KeyIndex } from './key-index';
import type { KV, RangeOptions } from './types';

interface Collected {
  kvs: KV[];
  more: boolean;
  remaining: number;
}

/**
 * Runs a key-ordered source through filter and limit. `source` calls `visit` per item until it
 * returns false and reports how many items its span held (filter ignored).
 */
function collect(
  source: (visit: (kv: KV) => boolean) => number,
  opts: RangeOptions | undefined,
): Collected {
  const limit = opts?.limit && opts.limit > 0 ? opts.limit : Infinity;
  const filter = opts?.filter;
  const kvs: KV[] = [];
  let more = false;
  let seen = 0;
  let seenAtLast = 0;
  const span = source((kv) => {
    if (filter && !filter(kv)) {
      seen++;
      return true;
    }
    if (kvs.length >= limit) {
      more = true;
      return false;
    }
    seen++;
    kvs.push(kv);
    seenAtLast = seen;
    return true;
  });
  return { kvs, more, remaining: span - seenAtLast };
}

export function rangeCurrent(index: KeyIndex, prefix: string, opts?: RangeOptions): Collected {
  if (!opts?.filter) {
    // Without a filter the limit alone decides: slice the span instead of visiting each item.
    const limit = opts?.limit && opts.limit > 0 ? opts.limit : Infinity;
    const { kvs, span } = index.take(prefix, opts?.after, limit);
    return { kvs, more: span > kvs.length, remaining: span - kvs.length };
  }
  return collect((visit) => index.scan(prefix, opts.after, visit), opts);
}

export function rangePast(
  index: KeyIndex,
  history: HistoryWindow,
  prefix: string,
  rev: number,
  opts?: RangeOptions,
): Collected {
  const after = opts?.after;
  const inSpan = (key: string) => key.startsWith(prefix) && (after === undefined || key > after);
  const changed = history.stateAt(rev, inSpan);
  if (changed.size === 0) return rangeCurrent(index, prefix, opts);

  // Current keys with their past state substituted, plus keys that existed then but not now.
  const items: KV[] = [];
  index.scan(prefix, after, (kv) => {
    if (!changed.has(kv.key)) items.push(kv);
    else {
      const past = changed.get(kv.key);
      if (past) items.push(past);
    }
    return true;
  });
  let extra = false;
  for (const [key, past] of changed) {
    if (past && !index.get(key)) {
      items.push(past);
      extra = true;
    }
  }
  if (extra) items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return collect((visit) => {
    for (const kv of items) if (!visit(kv)) break;
    return items.length;
  }, opts);
}
