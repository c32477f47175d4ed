// WATCH: a chunked stream of {"type","object"} lines (or protobuf frames later), starting from the
// state or revision the request names, with bookmarks, timeouts, selector transitions and 410
// for revisions older than the history window.
import type { ApiResponse, ApiStream, StreamSink } from '../meta/types';
import type { RequestContext } from './context';
import { queryFlag } from './context';
import { isTrueQueryValue } from '../meta/query-bool';
import type { OutputFormat } from '../meta/output';
import { badRequest, ApiError } from '../meta/status';
import { listPrefix } from '../registry/catalog';
import { makePredicate, type Predicate } from '../registry/predicate';
import { servedPredicate, servedText } from '../registry/conversion';
import { StorageError, type StoreEvent, type WatchHandle } from '../storage/types';
import { parseResourceVersion, tooOld } from './resourceversion';
import { encodeJsonLine, eventObjectText, jsonLine, type WatchEventType } from './watchframes';
import { baseHeaders } from './respond';
import { buildTable } from '../codec/table';
import { typeMetaPrefix, withTypeMeta, type Obj } from '../registry/objects';
import { encodeWatchFrame } from '../codec/protobuf';

export interface WatchSettings {
  /** Cap on a watch's duration (the browser host keeps it well under the worker's lifetime). */
  maxWatchSeconds?: number;
  /** Default duration when the client sends no timeoutSeconds: random in [min, 2*min) seconds. */
  defaultWatchSeconds: number;
  bookmarkIntervalMs: number;
  /** A watcher whose host buffer stays full for this many events is ended (it must resume). */
  maxCongestedEvents: number;
}

export interface ActiveWatches {
  add(stop: () => void): () => void;
}

interface Frame {
  type: WatchEventType;
  /** Stored text of the object (no kind/apiVersion), or a full JSON object for BOOKMARK/ERROR. */
  text?: string;
  json?: string;
  ev?: StoreEvent;
}

function validateWatchOptions(q: URLSearchParams): { sendInitial?: boolean } {
  const sie = q.get('sendInitialEvents');
  const match = q.get('resourceVersionMatch') ?? '';
  const bookmarks = queryFlag(q, 'allowWatchBookmarks');
  if (sie !== null) {
    if (match !== 'NotOlderThan') throw badRequest('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
    if (!bookmarks) throw badRequest('ListOptions.meta.k8s.io "" is invalid: allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true');
    return { sendInitial: isTrueQueryValue(sie) };
  }
  if (match) throw badRequest('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided');
  return {};
}

export async function handleWatch(rc: RequestContext, out: OutputFormat, settings: WatchSettings, active: ActiveWatches): Promise<ApiResponse> {
  const { reg, r, info, query } = rc;
  const { sendInitial } = validateWatchOptions(query);
  // Watches are served by the watch cache.
  const rv = parseResourceVersion(query.get('resourceVersion'), 'watch cache');
  const bookmarks = queryFlag(query, 'allowWatchBookmarks');
  const pred = servedPredicate(r, makePredicate(r, query, info.name || undefined));
  const prefix = listPrefix(r, info.namespace);
  const timeoutText = query.get('timeoutSeconds');
  let seconds = timeoutText ? Number(timeoutText) : settings.defaultWatchSeconds * (1 + Math.random());
  if (!Number.isFinite(seconds) || seconds < 0) throw badRequest(`invalid timeoutSeconds: ${timeoutText}`);
  if (settings.maxWatchSeconds && seconds > settings.maxWatchSeconds) seconds = settings.maxWatchSeconds;

  // Which state to start from: synthetic ADDED for the current state, or changes after rv.
  const withInitialState = sendInitial ?? (rv === undefined || rv === 0);
  let initial: Frame[] = [];
  let startRev: number;
  if (withInitialState) {
    const res = await reg.mvcc.range(prefix, { filter: pred.filter });
    startRev = res.rev;
    initial = res.kvs.map((kv) => ({ type: 'ADDED' as const, text: kv.value }));
  } else {
    startRev = rv ?? reg.mvcc.revision;
  }
  // Too old: the response is still 200; the stream carries one ERROR event (as kube-apiserver).
  let expiredError: ApiError | undefined;
  if (!withInitialState && rv !== undefined && rv < reg.mvcc.compactRevision) expiredError = tooOld(rv, reg.mvcc.compactRevision);
  const futureFloor = !withInitialState && rv !== undefined && rv > reg.mvcc.revision ? rv : 0;

  const protobuf = out.kind === 'protobuf';
  const contentType = protobuf ? 'application/vnd.kubernetes.protobuf;stream=watch' : 'application/json';
  const table = out.kind === 'table';
  let headersSent = false;
  /** BOOKMARK and ERROR events, from their object's JSON. */
  const control = (type: WatchEventType, json: string): string | Uint8Array =>
    protobuf ? encodeWatchFrame(type, JSON.parse(json) as Obj, r.apiVersion) : jsonLine(type, json);
  const encode = (stored: Frame): string | Uint8Array => {
    if (stored.json !== undefined) return control(stored.type, stored.json);
    // Frames carry storage-version text; converted kinds are sent at the watched version.
    const f = r.codec ? { ...stored, text: servedText(r, stored.text as string) } : stored;
    if (protobuf) return encodeWatchFrame(f.type, JSON.parse(withTypeMeta(f.text as string, r.info.kind, r.apiVersion)) as Obj, r.apiVersion);
    if (table) {
      const obj = JSON.parse(withTypeMeta(f.text as string, r.info.kind, r.apiVersion)) as Obj;
      const t = buildTable(r.spec?.printer, [obj], { resourceVersion: obj.metadata?.resourceVersion ?? '' }, { includeObject: out.includeObject ?? 'Metadata', apiVersion: `meta.k8s.io/${out.version ?? 'v1'}`, now: reg.now(), noHeaders: headersSent }, out.columns);
      headersSent = true;
      return jsonLine(f.type, JSON.stringify(t));
    }
    if (f.ev) return encodeJsonLine(f.ev, f.type, f.text as string, r.info.kind, r.apiVersion);
    return jsonLine(f.type, withTypeMeta(f.text as string, r.info.kind, r.apiVersion));
  };
  const bookmarkJson = (rev: number, initialEnd: boolean): string => {
    const annotations = '"annotations":{"k8s.io/initial-events-end":"true"}';
    const rv = `"resourceVersion":"${rev}"`;
    // Go's ObjectMeta order; a custom object's metadata (an unstructured map) sorted.
    const meta = initialEnd ? `{${rv},${annotations}}` : `{${rv}}`;
    if (table) return `{"kind":"Table","apiVersion":"meta.k8s.io/${out.version ?? 'v1'}","metadata":${meta},"columnDefinitions":null,"rows":null}`;
    if (r.info.custom) return withTypeMeta(`{"metadata":${initialEnd ? `{${annotations},${rv}}` : meta}}`, r.info.kind, r.apiVersion);
    return `${typeMetaPrefix(r.info.kind, r.apiVersion)}"metadata":${meta}}`;
  };

  let handle: WatchHandle | undefined;
  let timers: any[] = [];
  let sink: StreamSink | undefined;
  let done = false;
  let lastRev = startRev;
  let congested = 0;
  let unregister = () => {};

  const stop = (withBookmark: boolean) => {
    if (done) return;
    done = true;
    for (const t of timers) clearTimeout(t);
    timers = [];
    handle?.cancel();
    unregister();
    if (sink) {
      if (withBookmark && bookmarks) sink.write(control('BOOKMARK', bookmarkJson(lastRev, false)));
      sink.end();
    }
  };
  const write = (chunk: string | Uint8Array) => {
    if (done || !sink) return;
    if (sink.write(chunk)) congested = 0;
    else if (++congested > settings.maxCongestedEvents) stop(false);
  };
  const onEvent = (ev: StoreEvent) => {
    if (done || ev.rev <= futureFloor) return;
    lastRev = ev.rev;
    const frame = transition(ev, pred);
    if (frame) write(encode(frame));
  };

  const stream: ApiStream = {
    kind: 'stream',
    start(s: StreamSink) {
      sink = s;
      if (expiredError) {
        write(control('ERROR', JSON.stringify(expiredError.toStatus())));
        stop(false);
        return;
      }
      unregister = active.add(() => stop(true));
      for (const f of initial) write(encode(f));
      initial = [];
      if (sendInitial) write(control('BOOKMARK', bookmarkJson(startRev, true)));
      try {
        handle = reg.mvcc.watch(prefix, startRev, onEvent);
      } catch (err) {
        if (err instanceof StorageError && err.code === 'Expired') {
          write(control('ERROR', JSON.stringify(tooOld(startRev, reg.mvcc.compactRevision).toStatus())));
          stop(false);
          return;
        }
        throw err;
      }
      timers.push(setTimeout(() => stop(true), seconds * 1000));
      if (bookmarks) {
        const tick = () => {
          if (done) return;
          write(control('BOOKMARK', bookmarkJson(Math.max(lastRev, reg.mvcc.revision), false)));
          timers.push(setTimeout(tick, settings.bookmarkIntervalMs));
        };
        timers.push(setTimeout(tick, settings.bookmarkIntervalMs));
      }
    },
    cancel() {
      stop(false);
    },
  };
  return { status: 200, headers: baseHeaders(contentType, rc.warnings), body: stream };
}

/** Selector-aware event type: objects entering the selector are ADDED, leaving it DELETED. */
function transition(ev: StoreEvent, pred: Predicate): Frame | undefined {
  if (ev.type === 'delete') {
    if (pred.empty || pred.matchText(ev.prevValue as string)) return { type: 'DELETED', text: eventObjectText(ev), ev };
    return undefined;
  }
  const cur = pred.empty || pred.matchText(ev.value as string);
  const old = ev.prevValue !== undefined && (pred.empty || pred.matchText(ev.prevValue));
  if (cur && old) return { type: 'MODIFIED', text: ev.value, ev };
  if (cur) return { type: 'ADDED', text: ev.value, ev };
  if (old) return { type: 'DELETED', text: eventObjectText({ ...ev, type: 'delete' }), ev: undefined };
  return undefined;
}
