// The etcd calls the etcd store makes, on the `etcd3` client's raw KV service (its builders hide
// revisions and counts): keys under the --etcd-prefix, every unary call with a deadline so a
// request never hangs while etcd is down, and etcd's errors as StorageErrors (410 for compacted
// revisions, 500 InternalError for an unreachable cluster, as kube-apiserver answers them).
import { Etcd3, type IRangeResponse, type ITxnRequest, type ITxnResponse } from 'etcd3';
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

/** The key after every key that starts with `key` (etcd's range_end for a prefix). */
export function prefixEnd(key: string | Buffer): Buffer {
  const bytes = Buffer.from(key);
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 0xff) {
      const end = Buffer.from(bytes.subarray(0, i + 1));
      end[i]!++;
      return end;
    }
  }
  return Buffer.from([0]);
}

export class EtcdKv {
  readonly client: Etcd3;
  readonly prefix: string;

  constructor(opts: EtcdKvOptions) {
    this.prefix = opts.prefix.replace(/\/+$/, '');
    this.client = new Etcd3({
      hosts: opts.servers,
      dialTimeout: 2000,
      // Unary calls only: the watch stream must stay open.
      defaultCallOptions: (ctx) => (ctx.isStream ? {} : { deadline: Date.now() + CALL_DEADLINE_MS }),
    });
  }

  /** The etcd key of a store key. */
  etcdKey(key: string): Buffer {
    return Buffer.from(this.prefix + key);
  }

  /** The store key of an etcd key (undefined for keys outside the prefix). */
  storeKey(etcdKey: Buffer | string): string | undefined {
    const text = typeof etcdKey === 'string' ? etcdKey : etcdKey.toString();
    return text.startsWith(this.prefix) ? text.slice(this.prefix.length) : undefined;
  }

  /** A KV of the store from an etcd key-value. */
  toKv(kv: { key: Buffer; value: Buffer; create_revision: string; mod_revision: string }): KV {
    const modRev = Number(kv.mod_revision);
    return { key: this.storeKey(kv.key)!, value: fromStored(kv.value.toString(), modRev), createRev: Number(kv.create_revision), modRev };
  }

  async range(req: { key: Buffer; end?: Buffer; revision?: number; limit?: number; countOnly?: boolean; keysOnly?: boolean; deadlineMs?: number }): Promise<IRangeResponse> {
    const options = req.deadlineMs === undefined ? undefined : { deadline: Date.now() + req.deadlineMs };
    return this.call('range', () =>
      this.client.kv.range({ key: req.key, range_end: req.end, revision: req.revision ?? 0, limit: req.limit ?? 0, count_only: req.countOnly, keys_only: req.keysOnly }, options),
    );
  }

  async txn(req: ITxnRequest): Promise<ITxnResponse> {
    return this.call('txn', () => this.client.kv.txn(req));
  }

  async compact(revision: number): Promise<void> {
    await this.call('compact', () => this.client.kv.compact({ revision }));
  }

  close(): void {
    this.client.close();
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw etcdError(what, error);
    }
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
