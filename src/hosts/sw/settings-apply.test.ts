// The browser host's settings: start-up wording for refusals, restarts that keep the cluster,
// access control with the page still an admin, persistence across a worker restart, audit.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { createApiRuntime } from './api-runtime';
import { createSettingsStore } from './settings-store';
import { apiOptionsFor, applySettings, checkSettings, currentSettings, startupOptions } from './settings-apply';
import { DEFAULT_HOST_SETTINGS } from './protocol';
import { handleAdmin } from './admin';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const CRONJOB = {
  apiVersion: 'batch/v1beta1',
  kind: 'CronJob',
  metadata: { name: 'tick' },
  spec: { schedule: '*/5 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
};

function setup(indexedDB = new IDBFactory()) {
  const store = createSettingsStore({ dbName: 'settings', indexedDB });
  const runtime = createApiRuntime({ dbName: 'cluster', indexedDB, api: {}, settings: () => startupOptions(store, () => undefined) });
  return { store, runtime, indexedDB };
}

const get = async (rt: ReturnType<typeof setup>['runtime'], url: string, headers: Record<string, string> = {}) => (await rt.server()).handle({ method: 'GET', url, headers: { ...JSON_HEADERS, ...headers } });

describe('checkSettings', () => {
  it('refuses invalid text with the message `npm run serve` prints at start-up', () => {
    expect(checkSettings({ runtimeConfig: 'batch/v9=true' })).toEqual({ ok: false, error: 'invalid argument "batch/v9=true" for "--runtime-config" flag: unknown api groups batch/v9' });
    expect(checkSettings({ featureGates: 'ServerSideApply=false' })).toEqual({
      ok: false,
      error: 'invalid argument "ServerSideApply=false" for "--feature-gates" flag: cannot set feature gate ServerSideApply to false, feature is locked to true',
    });
    expect(checkSettings({ accessControl: 'ABAC' })).toEqual({ ok: false, error: 'access control "ABAC": want off or RBAC' });
    expect(checkSettings({ historyWindow: '5' })).toEqual({ ok: false, error: 'invalid argument "5" for "--history-window" flag: time: invalid duration "5"' });
    expect(checkSettings({ historyWindow: '0s' })).toEqual({ ok: false, error: 'invalid argument "0s" for "--history-window" flag: must be positive' });
    expect(checkSettings({ historyWindow: 30 })).toEqual({ ok: false, error: 'runtimeConfig, featureGates and historyWindow must be strings' });
  });

  it('turns a history window into the core option, and none into its default', () => {
    const checked = checkSettings({ historyWindow: ' 90s ' });
    expect(checked).toMatchObject({ ok: true, settings: { historyWindow: '90s' } });
    expect(apiOptionsFor(DEFAULT_HOST_SETTINGS).historyWindowMs).toBeUndefined();
    expect(apiOptionsFor({ ...DEFAULT_HOST_SETTINGS, historyWindow: '90s' }).historyWindowMs).toBe(90_000);
  });

  it('accepts the flag syntax and reports feature-gate warnings', () => {
    expect(checkSettings({ runtimeConfig: 'batch/v1beta1=false', featureGates: 'WatchBookmark=true', accessControl: 'RBAC' })).toEqual({
      ok: true,
      settings: { ...DEFAULT_HOST_SETTINGS, runtimeConfig: 'batch/v1beta1=false', featureGates: 'WatchBookmark=true', accessControl: 'RBAC', historyWindow: '' },
      warnings: ['Setting GA feature gate WatchBookmark=true. It will be removed in a future release.'],
    });
  });
});

describe('applying settings', () => {
  it('restarts the API with a group/version off and on again, objects kept', async () => {
    const { store, runtime } = setup();
    const created = await (await runtime.server()).handle({ method: 'POST', url: '/apis/batch/v1beta1/namespaces/default/cronjobs', headers: JSON_HEADERS, body: new TextEncoder().encode(JSON.stringify(CRONJOB)) });
    expect(created.status).toBe(201);
    const first = await runtime.server();

    const off = await applySettings(runtime, store, { runtimeConfig: 'batch/v1beta1=false', featureGates: '', accessControl: 'off' });
    expect(off.error).toBeUndefined();
    expect(off.settings.runtimeConfig).toBe('batch/v1beta1=false');
    expect(await runtime.server()).not.toBe(first);
    expect((await get(runtime, '/apis/batch/v1beta1/namespaces/default/cronjobs/tick')).status).toBe(404);
    expect((await get(runtime, '/apis/batch/v1/namespaces/default/cronjobs/tick')).status).toBe(200);

    await applySettings(runtime, store, { runtimeConfig: '', featureGates: '', accessControl: 'off' });
    expect((await get(runtime, '/apis/batch/v1beta1/namespaces/default/cronjobs/tick')).status).toBe(200);
    await runtime.close();
  });

  it('keeps the previous settings in force when new ones are refused', async () => {
    const { store, runtime } = setup();
    await applySettings(runtime, store, { runtimeConfig: 'batch/v1beta1=false' });
    const server = await runtime.server();
    const refused = await applySettings(runtime, store, { runtimeConfig: 'nope/v1' });
    expect(refused.error).toBe('invalid argument "nope/v1" for "--runtime-config" flag: unknown api groups nope/v1');
    expect(refused.settings.runtimeConfig).toBe('batch/v1beta1=false');
    expect(await runtime.server()).toBe(server);
    expect((await currentSettings(store)).settings.runtimeConfig).toBe('batch/v1beta1=false');
    await runtime.close();
  });

  it('with RBAC the page stays an admin while an impersonated user without bindings is forbidden', async () => {
    const { store, runtime } = setup();
    await applySettings(runtime, store, { accessControl: 'RBAC' });
    expect((await get(runtime, '/api/v1/namespaces/default/configmaps')).status).toBe(200);
    const denied = await get(runtime, '/api/v1/namespaces/default/configmaps', { 'impersonate-user': 'alice' });
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body as string).message).toBe('configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"');
    await applySettings(runtime, store, { accessControl: 'off' });
    expect((await get(runtime, '/api/v1/namespaces/default/configmaps', { 'impersonate-user': 'alice' })).status).toBe(200);
    await runtime.close();
  });

  it('survives a worker restart: a new worker starts with the saved settings and the memory cluster survives applies', async () => {
    const { store, runtime, indexedDB } = setup();
    await applySettings(runtime, store, { runtimeConfig: 'batch/v1beta1=false', featureGates: 'APIListChunking=false' });
    await runtime.close();
    const next = setup(indexedDB);
    expect((await get(next.runtime, '/apis/batch/v1beta1')).status).toBe(404);
    expect((await currentSettings(next.store)).settings).toEqual({ ...DEFAULT_HOST_SETTINGS, runtimeConfig: 'batch/v1beta1=false', featureGates: 'APIListChunking=false', accessControl: 'off', historyWindow: '' });
    await next.runtime.close();

    const memStore = createSettingsStore({ dbName: 's', indexedDB: { open: () => { throw new DOMException('denied', 'SecurityError'); } } as unknown as IDBFactory });
    const mem = createApiRuntime({ dbName: 'c', api: {}, forceMemory: true, settings: () => startupOptions(memStore, () => undefined) });
    await (await mem.server()).handle({ method: 'POST', url: '/api/v1/namespaces/default/configmaps', headers: JSON_HEADERS, body: new TextEncoder().encode('{"metadata":{"name":"kept"}}') });
    await applySettings(mem, memStore, { accessControl: 'RBAC' });
    expect((await memStore.load()).accessControl).toBe('RBAC');
    expect((await get(mem, '/api/v1/namespaces/default/configmaps/kept')).status).toBe(200);
    await mem.close();
  });
});

describe('admin endpoints', () => {
  const call = (rt: ReturnType<typeof setup>, method: string, action: string, body?: string) =>
    handleAdmin(action.split('?')[0]!, new Request(`http://x/__playground/${action}`, { method, body }), rt.runtime, 'test', rt.store);

  it('GET/PUT settings answer the settings in force; a refusal is a 422 with the start-up error', async () => {
    const rt = setup();
    expect(await (await call(rt, 'GET', 'settings')).json()).toEqual({ settings: { ...DEFAULT_HOST_SETTINGS, runtimeConfig: '', featureGates: '', accessControl: 'off', historyWindow: '' }, warnings: [] });
    const bad = await call(rt, 'PUT', 'settings', JSON.stringify({ runtimeConfig: 'batch/v1beta1=maybe' }));
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { message: string }).message).toBe('invalid argument "batch/v1beta1=maybe" for "--runtime-config" flag: invalid value of batch/v1beta1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax');
    const ok = await call(rt, 'PUT', 'settings', JSON.stringify({ runtimeConfig: 'batch/v1beta1=false', featureGates: '', accessControl: 'RBAC' }));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { settings: unknown }).settings).toEqual({ ...DEFAULT_HOST_SETTINGS, runtimeConfig: 'batch/v1beta1=false', featureGates: '', accessControl: 'RBAC', historyWindow: '' });
    await rt.runtime.close();
  });

  it('GET audit lists the recent audit events of the running server', async () => {
    const rt = setup();
    await get(rt.runtime, '/api/v1/namespaces/default/configmaps?audit-me=1');
    const res = await call(rt, 'GET', 'audit?limit=5');
    const { events } = (await res.json()) as { events: Array<{ requestURI: string; verb: string; user: { username: string } }> };
    expect(events.length).toBeLessThanOrEqual(5);
    expect(events.at(-1)).toMatchObject({ requestURI: '/api/v1/namespaces/default/configmaps?audit-me=1', verb: 'list' });
    await rt.runtime.close();
  });
});
