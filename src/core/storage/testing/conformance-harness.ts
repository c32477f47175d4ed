// Shared pieces of the store conformance suite: a controllable wrapper backend (counts commits,
// holds them until released, fails them on demand), a manual clock and store helpers.

import { afterEach } from 'vitest';
import { openMvccStore } from '../mvcc';
import type { BackendState, CommitBatch, KV, KvBackend, MvccStore, StoreEvent } from '../types';

export type MakeBackend = () => Promise<KvBackend> | KvBackend;
/** Given a backend whose store was closed, a backend over the same durable data. */
export type ReopenBackend = (previous: KvBackend) => Promise<KvBackend> | KvBackend;

/** Wraps a backend: records every commit batch, can hold commits or make them fail. */
export class ControlledBackend implements KvBackend {
  readonly commits: CommitBatch[] = [];
  /** The next this-many commits fail (as a rejected promise, or a synchronous throw). */
  failNext = 0;
  failSynchronously = false;
  private gate: Promise<void> | undefined;

  constructor(readonly inner: KvBackend) {}

  get name(): string {
    return this.inner.name;
  }

  /** Holds every commit from now on until the returned release function is called. */
  hold(): () => void {
    let release!: () => void;
    this.gate = new Promise((resolve) => (release = resolve));
    return () => {
      this.gate = undefined;
      release();
    };
  }

  open(): Promise<BackendState> {
    return this.inner.open();
  }
  read(keys: string[]): Promise<Array<string | undefined>> {
    return this.inner.read(keys);
  }
  readPrefix(prefix: string): Promise<Array<[string, string]>> {
    return this.inner.readPrefix(prefix);
  }
  commit(batch: CommitBatch): Promise<void> | void {
    this.commits.push(batch);
    const gate = this.gate;
    if (this.failNext > 0) {
      this.failNext--;
      if (this.failSynchronously) throw new Error('injected commit failure');
      return (gate ?? Promise.resolve()).then(() => Promise.reject(new Error('injected commit failure')));
    }
    return gate ? gate.then(() => this.inner.commit(batch)) : this.inner.commit(batch);
  }
  healthy(): Promise<boolean> {
    return this.inner.healthy();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export class ManualClock {
  time = 1_000_000;
  readonly now = (): number => this.time;
  advance(ms: number): void {
    this.time += ms;
  }
}

export const WINDOW_MS = 60_000;

/** A store the suite opens: fresh and empty (keys of its own), time from `clock`, window WINDOW_MS. */
export interface StoreTarget {
  open(clock: ManualClock): Promise<{ store: MvccStore; control?: ControlledBackend }>;
  /**
   * The in-process MVCC store over a KvBackend: commits the suite can hold and fail, writes queued
   * in call order, reads at past revisions answered from the history window (so they expire with
   * it). A store on etcd has none of these: etcd orders concurrent writes and keeps past revisions
   * until it compacts them, as kube-apiserver's etcd3 store does.
   */
  inProcess: boolean;
}

/** The in-process store over fresh backends, each wrapped in a ControlledBackend. */
export function backendTarget(makeBackend: MakeBackend): StoreTarget {
  return {
    inProcess: true,
    async open(clock) {
      const control = new ControlledBackend(await makeBackend());
      return { store: await openMvccStore(control, { historyWindowMs: WINDOW_MS, now: clock.now }), control };
    },
  };
}

export interface Opened {
  store: MvccStore;
  /** Present for in-process targets. */
  control: ControlledBackend | undefined;
  clock: ManualClock;
  /**
   * The store's revision `n` writes after it opened: a fresh in-process store starts at 0, a store
   * on a shared etcd at etcd's revision (expectations are relative to it).
   */
  rev(n: number): number;
}

/** Opens stores of a target (or over a given backend, for reopening) and closes them after each test. */
export function storeFactory(target: StoreTarget) {
  const open: MvccStore[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  return async (backend?: KvBackend, clock = new ManualClock()): Promise<Opened> => {
    const opened = backend ? await backendTarget(() => backend).open(clock) : await target.open(clock);
    open.push(opened.store);
    const base = opened.store.revision;
    return { store: opened.store, control: opened.control, clock, rev: (n) => base + n };
  };
}

/** For suites that hold and fail commits: the controlled backend is always there. */
export function controlledStoreFactory(makeBackend: MakeBackend) {
  const openStore = storeFactory(backendTarget(makeBackend));
  return async (backend?: KvBackend, clock?: ManualClock): Promise<Opened & { control: ControlledBackend }> => {
    const opened = await openStore(backend, clock);
    return { ...opened, control: opened.control! };
  };
}

/** The text obj(name, extra) encodes at revision `rev`. */
export function text(name: string, rev: number, extra: Record<string, unknown> = {}): string {
  return obj(name, extra)(rev);
}

/** An encoder whose JSON carries the revision, like metadata.resourceVersion. */
export function obj(name: string, extra: Record<string, unknown> = {}): (rev: number) => string {
  return (rev) => JSON.stringify({ name, rv: String(rev), ...extra });
}

export function values(kvs: readonly (KV | undefined)[]): unknown[] {
  return kvs.map((kv) => (kv ? JSON.parse(kv.value) : undefined));
}

/** Collects events; `flush` lets replay microtasks and pending commits run. */
export function recorder(): { events: StoreEvent[]; onEvent: (ev: StoreEvent) => void } {
  const events: StoreEvent[] = [];
  return { events, onEvent: (ev) => events.push(ev) };
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setTimeout(resolve, 0));
}

export function summary(events: readonly StoreEvent[]): string[] {
  return events.map((ev) => `${ev.type} ${ev.key} @${ev.rev}`);
}
