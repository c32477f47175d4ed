// A lazily opened API server (the Service Worker's cold start): a GET of an object is answered
// before the store has loaded every value and before the bootstrap ran; lists and writes wait.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createIdbBackend } from '../../backends/idb/idb-backend';
import { createApiServer } from '../api';
import type { BackendState, KvBackend } from '../storage/types';
import { decodeReply } from '../testing/api-server';

const factory = new IDBFactory();
const CM = '/api/v1/namespaces/default/configmaps';
const enc = new TextEncoder();

describe('lazy open of the API server', () => {
  it('serves a GET while the full load is held, then everything else', async () => {
    const seed = await createApiServer({ backend: createIdbBackend({ dbName: 'api-lazy', indexedDB: factory }) });
    const created = await seed.handle({ method: 'POST', url: CM, headers: { 'content-type': 'application/json' }, body: enc.encode(JSON.stringify({ metadata: { name: 'cold' }, data: { a: '1' } })) });
    expect(created.status).toBe(201);
    await seed.close();

    const inner = createIdbBackend({ dbName: 'api-lazy', indexedDB: factory });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const backend: KvBackend = { ...inner, name: inner.name, open: async (): Promise<BackendState> => (await gate, inner.open()) };
    const api = await createApiServer({ backend, lazyOpen: true });

    const got = decodeReply(await api.handle({ method: 'GET', url: `${CM}/cold`, headers: {} }));
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cold' }, data: { a: '1' } });
    const missing = decodeReply(await api.handle({ method: 'GET', url: `${CM}/nope`, headers: {} }));
    expect(missing.status).toBe(404);

    let listed = false;
    const list = api.handle({ method: 'GET', url: CM, headers: {} }).then((r) => ((listed = true), decodeReply(r)));
    await new Promise((r) => setTimeout(r, 20));
    expect(listed).toBe(false);
    release();
    const items = (await list).json.items as Array<{ metadata: { name: string } }>;
    expect(items.map((i) => i.metadata.name)).toContain('cold');
    await api.close();
  });
});
