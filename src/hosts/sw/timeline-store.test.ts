import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { createApiRuntime } from './api-runtime';
import { createTimelineStore } from './timeline-store';

const json = { 'content-type': 'application/json', accept: 'application/json' };
const body = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

describe('timeline store', () => {
  it('records every committed revision of an object, keeps them past the watch window, and clears with the cluster', async () => {
    const rt = createApiRuntime({ dbName: `tl-${Date.now()}`, indexedDB: new IDBFactory(), api: { historyWindowMs: 1 } });
    const server = await rt.server();
    const created = await server.handle({ method: 'POST', url: '/api/v1/namespaces/default/configmaps?fieldManager=alice', headers: json, body: body({ metadata: { name: 'tl' }, data: { a: '1' } }) });
    expect(created.status).toBe(201);
    const uid = JSON.parse(created.body as string).metadata.uid as string;
    for (const [manager, v] of [['bob', '2'], ['carol', '3']]) {
      const r = await server.handle({ method: 'PATCH', url: `/api/v1/namespaces/default/configmaps/tl?fieldManager=${manager}`, headers: { ...json, 'content-type': 'application/merge-patch+json' }, body: body({ data: { a: v } }) });
      expect(r.status).toBe(200);
    }
    expect((await server.handle({ method: 'DELETE', url: '/api/v1/namespaces/default/configmaps/tl', headers: json })).status).toBe(200);
    const revs = await rt.timeline.read(uid);
    expect(revs.map((r) => r.type)).toEqual(['put', 'put', 'put', 'delete']);
    expect(revs.map((r) => JSON.parse(r.text).data.a)).toEqual(['1', '2', '3', '3']);
    expect([...revs].map((r) => r.rev)).toEqual([...revs].map((r) => r.rev).sort((a, b) => a - b));
    await rt.reset();
    expect(await rt.timeline.read(uid)).toEqual([]);
    await rt.close();
  });

  it('keeps at most perObject revisions per object, dropping the oldest', async () => {
    const store = createTimelineStore({ dbName: `tl-bound-${Date.now()}`, perObject: 3 });
    const text = (n: number) => JSON.stringify({ metadata: { uid: 'u1', resourceVersion: String(n) }, data: { n: String(n) } });
    store.record([1, 2, 3, 4, 5].map((rev) => ({ type: 'put' as const, key: '/k', rev, createRev: 1, value: text(rev) })));
    expect((await store.read('u1')).map((r) => r.rev)).toEqual([3, 4, 5]);
  });
});
