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

/** A change; `Own`: a write of this host answered before the watch brought it (no value sent). */
export type WatchChange = { type: 'Put' | 'Delete'; kv: WireKv } | { type: 'Own'; rev: string };

export interface WatchReply {
  header: { revision: string };
  events: WatchChange[];
}

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
  /** A txn's commit hook: runs as its answer arrives, before any later message is handled. */
  committed?: (rev: number) => void;
  resolve(res: unknown): void;
  reject(error: StorageError): void;
}

type Reply = { id: number; res?: unknown; err?: string } | { w: number; data?: WatchReply; err?: string };

export class EtcdKv {
  readonly prefix: string;
  private readonly prefixBytes: string;
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly watches = new Map<number, { onData(res: WatchReply): void; onError(message: string): void }>();
  private nextId = 1;
  private closed = false;
  /** Messages of this event-loop turn, posted together (one clone and one wake-up of the worker). */
  private outbox: object[] = [];

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

  /**
   * One transaction. `committed`, when given, runs as soon as a successful answer arrives, before
   * any later message from the client thread: the host applies its write from there, so the
   * watch event of this revision may then cross as `{type: 'Own'}`, without its value.
   */
  txn(req: TxnRequest, committed?: (rev: number) => void): Promise<TxnReply> {
    return this.call('txn', committed ? { ...req, own: true } : req, undefined, committed) as Promise<TxnReply>;
  }

  async compact(revision: number): Promise<void> {
    await this.call('compact', { revision });
  }

  /** etcd's watch of every key under `prefix` (etcd key bytes) from `startRev`, progress included. */
  watch(prefix: string, startRev: number, onData: (res: WatchReply) => void, onError: (message: string) => void): KvWatch {
    const id = this.nextId++;
    this.watches.set(id, { onData, onError });
    this.post({ t: 'watch', id, key: prefix, startRev: String(startRev) });
    return {
      cancel: () => {
        if (!this.watches.delete(id)) return;
        this.post({ t: 'unwatch', id });
      },
    };
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.outbox = [];
    worker?.postMessage([{ t: 'close' }]);
    void worker?.terminate();
    this.failAll('the etcd client is closed');
  }

  private call(op: string, req: object, deadlineMs?: number, committed?: (rev: number) => void): Promise<unknown> {
    if (this.closed) return Promise.reject(new StorageError('Unavailable', `etcd ${op} failed: the etcd client is closed`));
    const id = this.nextId++;
    this.post({ t: 'call', id, op, req, deadlineMs });
    return new Promise((resolve, reject) => this.pending.set(id, { op, committed, resolve, reject }));
  }

  private post(message: object): void {
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
      if ('id' in reply) {
        const pending = this.pending.get(reply.id);
        if (!pending) continue;
        this.pending.delete(reply.id);
        if (reply.err === undefined) {
          const res = reply.res as TxnReply;
          if (pending.committed && res.succeeded) pending.committed(Number(res.header.revision));
          pending.resolve(res);
        }
        else pending.reject(etcdError(pending.op, new Error(reply.err)));
      } else {
        const watch = this.watches.get(reply.w);
        if (!watch) continue;
        if (reply.data) watch.onData(reply.data);
        else {
          this.watches.delete(reply.w);
          watch.onError(reply.err ?? 'watch failed');
        }
      }
    }
  }

  private failAll(message: string): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(etcdError(p.op, new Error(message)));
    const watches = [...this.watches.values()];
    this.watches.clear();
    for (const w of watches) w.onError(message);
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
