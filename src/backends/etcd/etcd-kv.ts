// The etcd calls the etcd store makes, on the `etcd3` client's raw KV and watch services: keys
// under the --etcd-prefix, every unary call with a deadline so a request never hangs while etcd is
// down, and etcd's errors as StorageErrors (410 for compacted revisions, 500 InternalError for an
// unreachable cluster, as kube-apiserver answers them).
// The client runs on a worker thread (etcd-worker.mjs, decision 0055): the gRPC work leaves the
// thread that runs the API. Keys are handled here as latin1 strings of their bytes, so paging
// and prefix ends are string operations and nothing copies a Buffer across threads.
import { Worker } from 'node:worker_threads';
import { StorageError, type KV } from '../../core/storage/types';
import { fromStored } from './stored-value';

/** How long one etcd call may take before the request fails. */
const CALL_DEADLINE_MS = 5000;

export interface EtcdKvOptions {
  /** Client URLs (`--etcd-servers`). */
  servers: string[];
  /** Key prefix in etcd (`--etcd-prefix`, default `/registry`). */
  prefix: string;
}

/** An etcd key-value as the worker hands it over. */
export interface WireKv {
  /** latin1 string of the key's bytes. */
  key: string;
  value: string;
  create_revision: string;
  mod_revision: string;
}

export interface RangeReply {
  header: { revision: string };
  kvs: WireKv[];
  more: boolean;
  count: string;
}

export type TxnCompare =
  | { key: string; target: 'Mod'; result: 'Equal'; mod_revision: number }
  | { key: string; target: 'Version'; result: 'Equal'; version: number };

export type TxnOp = { request_put: { key: string; value: string } } | { request_delete_range: { key: string } } | { request_range: { key: string } };

export interface TxnRequest {
  compare?: TxnCompare[];
  success?: TxnOp[];
  failure?: TxnOp[];
}

export interface TxnReply {
  header: { revision: string };
  succeeded: boolean;
  responses: Array<{ response_range?: { kvs: WireKv[] } }>;
}

/**
 * What a watch hands over, one etcd watch response at a time: its changes in order, then `end`.
 * `own`: a write of this host whose answer came first (EtcdKv.write's `committed` has run for it);
 * its value stays on the client thread.
 */
export interface WatchSink {
  own(rev: number): void;
  put(kv: WireKv): void;
  delete(key: string, modRev: number): void;
  end(headerRev: number, changes: number): void;
  error(message: string): void;
}

/** A write's outcome: committed at `rev`, or refused by the compare (`current`: the key now). */
export type WriteResult = { rev: number } | { conflict: true; current: WireKv | undefined };

export interface KvWatch {
  cancel(): void;
}

/** A latin1 string of a text's UTF-8 bytes (the text itself when it is ASCII). */
function bytesOf(text: string): string {
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text).toString('latin1');
}

/** The text of a latin1 string of UTF-8 bytes. */
function textOf(bytes: string): string {
  return /^[\x00-\x7f]*$/.test(bytes) ? bytes : Buffer.from(bytes, 'latin1').toString();
}

/** The key after every key that starts with `key` (etcd's range_end for a prefix). */
export function prefixEnd(key: string): string {
  for (let i = key.length - 1; i >= 0; i--) {
    const code = key.charCodeAt(i);
    if (code < 0xff) return key.slice(0, i) + String.fromCharCode(code + 1);
  }
  return '\0';
}

/** The first key after `key` (where the next page starts). */
export function keyAfter(key: string): string {
  return `${key}\0`;
}

interface Pending {
  op: string;
  /** A write's commit hook: runs as its answer arrives, before any later message is handled. */
  committed?: (rev: number) => void;
  resolve(res: unknown): void;
  reject(error: StorageError): void;
}

// Message tags (etcd-worker.mjs describes the messages).
const [CALL, WRITE, WATCH, UNWATCH, CLOSE] = [0, 1, 2, 3, 4];
const [RESULT, ERROR, WRITTEN, CONFLICT, EVENTS, WATCH_ERROR] = [0, 1, 2, 3, 4, 5];
const [OWN, PUT] = [0, 1];

type Reply = unknown[];

export class EtcdKv {
  readonly prefix: string;
  private readonly prefixBytes: string;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly watches = new Map<number, WatchSink>();
  private nextId = 1;
  private closed = false;
  /** Messages of this event-loop turn, posted together (one clone and one wake-up of the worker). */
  private outbox: unknown[][] = [];

  constructor(private readonly opts: EtcdKvOptions) {
    this.prefix = opts.prefix.replace(/\/+$/, '');
    this.prefixBytes = bytesOf(this.prefix);
  }

  /** The etcd key of a store key. */
  etcdKey(key: string): string {
    return this.prefixBytes + bytesOf(key);
  }

  /** The store key of an etcd key (undefined for keys outside the prefix). */
  storeKey(etcdKey: string): string | undefined {
    return etcdKey.startsWith(this.prefixBytes) ? textOf(etcdKey.slice(this.prefixBytes.length)) : undefined;
  }

  /** A KV of the store from an etcd key-value. */
  toKv(kv: WireKv): KV {
    const modRev = Number(kv.mod_revision);
    return { key: this.storeKey(kv.key)!, value: fromStored(kv.value, modRev), createRev: Number(kv.create_revision), modRev };
  }

  range(req: { key: string; end?: string; revision?: number; limit?: number; countOnly?: boolean; keysOnly?: boolean; deadlineMs?: number }): Promise<RangeReply> {
    const { deadlineMs, ...rest } = req;
    return this.call('range', rest, deadlineMs) as Promise<RangeReply>;
  }

  txn(req: TxnRequest): Promise<TxnReply> {
    return this.call('txn', req) as Promise<TxnReply>;
  }

  /**
   * The host's write of one key, as kube's GuaranteedUpdate makes it: one transaction comparing
   * the key's mod revision (`modRev` 0: the key must not exist), then a put of `value` or, when it
   * is undefined, a delete; a refused compare answers the key as it is now. `committed` runs as
   * soon as the answer arrives, before any later message from the client thread: the host applies
   * its write there, so the watch event of this revision may cross without its value.
   */
  write(key: string, modRev: number, value: string | undefined, committed: (rev: number) => void): Promise<WriteResult> {
    return this.request('txn', [WRITE, 0, key, modRev, value ?? null], committed) as Promise<WriteResult>;
  }

  async compact(revision: number): Promise<void> {
    await this.call('compact', { revision });
  }

  /** etcd's watch of every key under `prefix` (etcd key bytes) from `startRev`, progress included. */
  watch(prefix: string, startRev: number, sink: WatchSink): KvWatch {
    const id = this.nextId++;
    this.watches.set(id, sink);
    this.post([WATCH, id, prefix, String(startRev)]);
    return {
      cancel: () => {
        if (!this.watches.delete(id)) return;
        this.post([UNWATCH, id]);
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.outbox = [];
    worker?.postMessage([[CLOSE]]);
    void worker?.terminate();
    this.failAll('the etcd client is closed');
  }

  private call(op: string, req: object, deadlineMs?: number): Promise<unknown> {
    return this.request(op, [CALL, 0, op, req, deadlineMs]);
  }

  /** Posts `message` with a fresh id in its second slot; the promise settles with the answer. */
  private request(op: string, message: unknown[], committed?: (rev: number) => void): Promise<unknown> {
    if (this.closed) return Promise.reject(new StorageError('Unavailable', `etcd ${op} failed: the etcd client is closed`));
    const id = this.nextId++;
    message[1] = id;
    this.post(message);
    return new Promise((resolve, reject) => this.pending.set(id, { op, committed, resolve, reject }));
  }

  private post(message: unknown[]): void {
    if (this.outbox.length === 0) setImmediate(this.flush);
    this.outbox.push(message);
  }

  private readonly flush = (): void => {
    const batch = this.outbox;
    this.outbox = [];
    if (!this.closed) this.started().postMessage(batch);
  };

  /** The worker, started on first use and again after it died (its calls and watches failed). */
  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./etcd-worker.mjs', import.meta.url), {
      workerData: { servers: this.opts.servers, callDeadlineMs: CALL_DEADLINE_MS },
    });
    // Like the sockets of an in-thread client: an idle host may still exit once closed.
    worker.on('message', (batch: Reply[]) => this.receive(batch));
    const died = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(`the etcd client thread stopped: ${error instanceof Error ? error.message : String(error)}`);
    };
    worker.on('error', died);
    worker.on('exit', (code) => died(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private receive(batch: Reply[]): void {
    for (const reply of batch) {
      const tag = reply[0] as number;
      const id = reply[1] as number;
      if (tag === EVENTS || tag === WATCH_ERROR) {
        const sink = this.watches.get(id);
        if (!sink) continue;
        if (tag === EVENTS) this.deliver(sink, reply);
        else {
          this.watches.delete(id);
          sink.error(reply[2] as string);
        }
        continue;
      }
      const pending = this.pending.get(id);
      if (!pending) continue;
      this.pending.delete(id);
      if (tag === RESULT) pending.resolve(reply[2]);
      else if (tag === WRITTEN) {
        const rev = Number(reply[2]);
        pending.committed?.(rev);
        pending.resolve({ rev });
      } else if (tag === CONFLICT) {
        const current = reply[2] === null ? undefined : { key: reply[2] as string, value: reply[3] as string, create_revision: reply[4] as string, mod_revision: reply[5] as string };
        pending.resolve({ conflict: true, current });
      } else pending.reject(etcdError(pending.op, new Error(reply[2] as string)));
    }
  }

  /** One watch response: [EVENTS, id, headerRev, ...changes]. */
  private deliver(sink: WatchSink, reply: Reply): void {
    let changes = 0;
    for (let i = 3; i < reply.length; changes++) {
      const kind = reply[i] as number;
      if (kind === OWN) {
        sink.own(Number(reply[i + 1]));
        i += 2;
      } else if (kind === PUT) {
        sink.put({ key: reply[i + 1] as string, value: reply[i + 2] as string, create_revision: reply[i + 3] as string, mod_revision: reply[i + 4] as string });
        i += 5;
      } else {
        sink.delete(reply[i + 1] as string, Number(reply[i + 2]));
        i += 3;
      }
    }
    sink.end(Number(reply[2]), changes);
  }

  private failAll(message: string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(etcdError(p.op, new Error(message)));
    const watches = [...this.watches.values()];
    this.watches.clear();
    for (const w of watches) w.error(message);
  }
}

/** etcd's error as kube-apiserver reports it. */
export function etcdError(what: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/required revision has been compacted/.test(message)) return new StorageError('Expired', `etcd ${what}: ${message}`);
  if (/required revision is a future revision/.test(message)) return new StorageError('TooLargeRevision', `etcd ${what}: ${message}`);
  return new StorageError('Unavailable', `etcd ${what} failed: ${message}`);
}
