import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreConformance } from '../../core/storage/testing/conformance';
import { openMvccStore } from '../../core/storage/mvcc';
import { StorageError, type CommitBatch, type KvBackend } from '../../core/storage/types';
import { createLmdbBackend } from './lmdb-backend';

// Every backend of this file lives in its own directory under one temp root, removed at the end.
const root = mkdtempSync(join(tmpdir(), 'kp-lmdb-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const paths = new WeakMap<KvBackend, string>();
let counter = 0;

function at(path: string): KvBackend {
  const backend = createLmdbBackend({ path });
  paths.set(backend, path);
  return backend;
}
const freshBackend = (): KvBackend => at(join(root, `db-${++counter}`));
const sameFiles = (previous: KvBackend): KvBackend => at(paths.get(previous)!);

runStoreConformance('lmdb', freshBackend, sameFiles);

describe('lmdb backend', () => {
  const put = (key: string, rev: number): CommitBatch => ({
    revision: rev,
    puts: [{ key, value: `{"k":"${key}"}`, createRev: rev, modRev: rev }],
    deletes: [],
    events: [{ type: 'put', key, rev, value: `{"k":"${key}"}`, createRev: rev }],
    compactRevision: 0,
  });

  it('persists objects, revisions and history across a reopen of the files', async () => {
    const backend = freshBackend();
    await backend.commit(put('/b/2', 1));
    await backend.commit(put('/a/1', 2));
    const withDelete = put('/b/1', 3);
    await backend.commit({
      ...withDelete,
      revision: 4,
      deletes: ['/a/1'],
      events: [...withDelete.events, { type: 'delete', key: '/a/1', rev: 4, prevValue: '{"k":"/a/1"}', createRev: 2, prevModRev: 2 }],
    });
    await backend.close();
    const again = sameFiles(backend);
    const state = await again.open();
    expect(state.revision).toBe(4);
    expect(state.index).toEqual([
      { key: '/b/1', createRev: 3, modRev: 3 },
      { key: '/b/2', createRev: 1, modRev: 1 },
    ]);
    expect(state.events.map((ev) => [ev.rev, ev.type, ev.value])).toEqual([
      [1, 'put', '{"k":"/b/2"}'],
      [2, 'put', '{"k":"/a/1"}'],
      [3, 'put', '{"k":"/b/1"}'],
      [4, 'delete', undefined],
    ]);
    expect(await again.read(['/b/2', '/a/1'])).toEqual(['{"k":"/b/2"}', undefined]);
    expect(await again.readPrefix('/b/')).toEqual([['/b/1', '{"k":"/b/1"}'], ['/b/2', '{"k":"/b/2"}']]);
    expect(await again.readPrefix('/a/')).toEqual([]);
    expect(await again.healthy()).toBe(true);
    await again.close();
  });

  it('drops durable history at or below the compaction revision, and keeps the revision', async () => {
    const backend = freshBackend();
    for (let rev = 1; rev <= 4; rev++) await backend.commit(put(`/k/${rev}`, rev));
    await backend.commit({
      revision: 5,
      puts: [],
      deletes: ['/k/4'],
      events: [{ type: 'delete', key: '/k/4', rev: 5, prevValue: '{"k":"/k/4"}', createRev: 4, prevModRev: 4 }],
      compactRevision: 3,
    });
    await backend.close();
    const state = await sameFiles(backend).open();
    expect(state.compactRevision).toBe(3);
    expect(state.revision).toBe(5);
    expect(state.events.map((ev) => ev.rev)).toEqual([4, 5]);
  });

  it('refuses a batch with a key LMDB cannot hold, and writes none of it', async () => {
    const backend = freshBackend();
    await backend.commit(put('/k/1', 1));
    const bad = put('/k/2', 2);
    bad.puts.push({ key: `/k/${'x'.repeat(2000)}`, value: '{}', createRev: 2, modRev: 2 });
    const error = await Promise.resolve(backend.commit(bad)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('Backend');
    const state = await backend.open();
    expect(state.revision).toBe(1);
    expect(state.index.map((r) => r.key)).toEqual(['/k/1']);
    await backend.close();
  });

  it('a store reopened over the files continues the revision and replays history to a watch', async () => {
    const backend = freshBackend();
    const store = await openMvccStore(backend);
    await store.create('/r/a', (rev) => `{"rv":${rev}}`);
    await store.update('/r/a', () => ({ kind: 'put', encode: (rev) => `{"rv":${rev}}` }));
    await store.create('/r/b', (rev) => `{"rv":${rev}}`);
    await store.close();
    const again = await openMvccStore(sameFiles(backend));
    expect(again.revision).toBe(3);
    const seen: string[] = [];
    again.watch('/r/', 1, (ev) => seen.push(`${ev.type} ${ev.key} ${ev.value}`));
    const next = await again.create('/r/c', (rev) => `{"rv":${rev}}`);
    expect(next.modRev).toBe(4);
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['put /r/a {"rv":2}', 'put /r/b {"rv":3}', 'put /r/c {"rv":4}']);
    await again.close();
  });
});

describe('lmdb data directory lock', () => {
  it('refuses a directory another live process holds, and takes over one left by a dead process', async () => {
    const path = join(root, `locked-${++counter}`);
    mkdirSync(path, { recursive: true });
    // The parent of this test worker is alive for the whole test.
    writeFileSync(join(path, 'host.lock'), `${process.ppid}\n`);
    const refused = await createLmdbBackend({ path }).open().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StorageError);
    expect((refused as StorageError).code).toBe('Unavailable');
    expect((refused as StorageError).message).toContain(`in use by process ${process.ppid}`);

    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(join(path, 'host.lock'), `${dead}\n`);
    const backend = createLmdbBackend({ path });
    expect((await backend.open()).revision).toBe(0);
    expect(readFileSync(join(path, 'host.lock'), 'utf8').trim()).toBe(String(process.pid));
    await backend.close();
    expect(existsSync(join(path, 'host.lock'))).toBe(false);
  });
});
