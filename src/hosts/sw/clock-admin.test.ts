// The browser host's cluster clock and cluster settings: a paused clock holds the kubelets, a step
// brings the pods up at the cluster time their delay ends, the speed is kept with the settings,
// and the cluster settings are checked with the Node host's flag wording.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import { createApiRuntime, type ApiRuntime } from './api-runtime';
import { createSettingsStore, type SettingsStore } from './settings-store';
import { applySettings, checkSettings, startupOptions } from './settings-apply';
import { createClockAdmin } from './clock-admin';
import { handleAdmin } from './admin';
import { PlaygroundClock } from '../../core/controllers/clock';
import { deployment } from '../../core/testing/controllers';
import { DEFAULT_HOST_SETTINGS, type HostClock } from './protocol';
import { bodyText } from '../../core/codec/json';
import { isStream } from '../../core/meta/types';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const START = Date.UTC(2022, 0, 1);

let open: { runtime: ApiRuntime; clock: PlaygroundClock } | undefined;
afterEach(async () => {
  await open?.runtime.close();
  open?.clock.dispose();
  open = undefined;
});

async function setup(settings: Record<string, unknown> = {}) {
  const indexedDB = new IDBFactory();
  const store: SettingsStore = createSettingsStore({ dbName: 'settings', indexedDB });
  await store.save({ ...DEFAULT_HOST_SETTINGS, kubeletDelay: '5s', nodes: 2, ...settings });
  const clock = new PlaygroundClock({ start: START, paused: true });
  const runtime = createApiRuntime({ dbName: 'cluster', forceMemory: true, api: {}, settings: () => startupOptions(store, (e) => { throw new Error(e); }, clock) });
  open = { runtime, clock };
  const admin = createClockAdmin(runtime, clock, store);
  const call = async (method: string, action: string, body?: unknown) => {
    const res = await handleAdmin(action, new Request(`http://x/__playground/${action}`, { method, body: body === undefined ? undefined : JSON.stringify(body) }), runtime, 'test', store, admin);
    return { status: res.status, json: (await res.json()) as HostClock & { message?: string } };
  };
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await (await runtime.server()).handle({ method, url, headers: JSON_HEADERS, ...(body ? { body: new TextEncoder().encode(JSON.stringify(body)) } : {}) });
    if (isStream(res.body)) throw new Error('unexpected stream');
    return { status: res.status, json: JSON.parse(bodyText(res.body)) as any };
  };
  await (await runtime.server()).controllers?.runUntilIdle();
  return { store, runtime, clock, call, api };
}

const phases = (list: any) => (list.items as any[]).map((p) => p.status?.phase).sort();

describe('the clock endpoint', () => {
  it('holds the kubelets while paused and brings the pods up when stepped past their delay', async () => {
    const t = await setup();
    expect((await t.api('GET', '/api/v1/nodes')).json.items.map((n: any) => n.metadata.name)).toEqual(['node-1', 'node-2']);
    expect(await t.call('GET', 'clock')).toMatchObject({ status: 200, json: { now: START, paused: true, speed: 1, cluster: true } });
    expect((await t.api('POST', '/apis/apps/v1/namespaces/default/deployments', deployment('web', 2))).status).toBe(201);
    await (await t.runtime.server()).controllers!.runUntilIdle();
    expect(phases((await t.api('GET', '/api/v1/namespaces/default/pods')).json)).toEqual(['Pending', 'Pending']);

    const first = await t.call('POST', 'clock', { action: 'step', ms: 4000 });
    expect(first.json).toMatchObject({ now: START + 4000, paused: true });
    expect(phases((await t.api('GET', '/api/v1/namespaces/default/pods')).json)).toEqual(['Pending', 'Pending']);

    await t.call('POST', 'clock', { action: 'step', ms: 1000 });
    const pods = (await t.api('GET', '/api/v1/namespaces/default/pods')).json;
    expect(phases(pods)).toEqual(['Running', 'Running']);
    // The pods started at the cluster time their delay ended, not at the end of some longer step.
    expect(pods.items[0].status.containerStatuses[0].state.running.startedAt).toBe('2022-01-01T00:00:05Z');
    const d = (await t.api('GET', '/apis/apps/v1/namespaces/default/deployments/web')).json;
    expect(d.status).toMatchObject({ readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2 });
  });

  it('resumes, changes and keeps the speed, and refuses bad actions with a 400', async () => {
    const t = await setup();
    expect((await t.call('POST', 'clock', { action: 'speed', speed: 20 })).json).toMatchObject({ speed: 20, paused: true });
    expect((await t.store.load()).clockSpeed).toBe(20);
    expect((await t.call('POST', 'clock', { action: 'resume' })).json).toMatchObject({ paused: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.clock.now()).toBeGreaterThan(START + 500);
    expect((await t.call('POST', 'clock', { action: 'pause' })).json).toMatchObject({ paused: true });
    expect(await t.call('POST', 'clock', { action: 'step', ms: -1 })).toMatchObject({ status: 400, json: { message: 'step: ms must be a number of milliseconds in (0, 3600000]' } });
    expect(await t.call('POST', 'clock', { action: 'jump' })).toMatchObject({ status: 400, json: { message: 'unknown clock action "jump": want pause, resume, step or speed' } });
  });

  it('only moves time when the simulated cluster is off', async () => {
    const t = await setup({ clusterOn: false });
    expect((await t.api('GET', '/api/v1/nodes')).json.items).toEqual([]);
    expect((await t.call('POST', 'clock', { action: 'step', ms: 10_000 })).json).toMatchObject({ now: START + 10_000, cluster: false });
  });
});

describe('cluster settings', () => {
  it('refuses bad values with the Node host flag wording', () => {
    expect(checkSettings({ controllers: '*,-nosuch' })).toEqual({ ok: false, error: '"nosuch" is not in the list of known controllers' });
    expect(checkSettings({ nodes: 5000 })).toEqual({ ok: false, error: '--nodes "5000": want a whole number 0-1000' });
    expect(checkSettings({ nodeCpu: 'lots' })).toEqual({ ok: false, error: '--node-cpu "lots": want a quantity such as 4 or 3500m' });
    expect(checkSettings({ kubeletDelay: '5' })).toEqual({ ok: false, error: 'invalid argument "5" for "--kubelet-delay" flag: time: invalid duration "5"' });
    expect(checkSettings({ clockSpeed: 0 })).toEqual({ ok: false, error: '--clock-speed "0": want a positive number' });
  });

  it('restarts the cluster with new nodes, keeping the objects', async () => {
    const t = await setup();
    await t.api('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' } });
    const answer = await applySettings(t.runtime, t.store, { ...(await t.store.load()), nodes: 3, nodeCpu: '2', controllers: '*,-deployment' });
    expect(answer.error).toBeUndefined();
    await (await t.runtime.server()).controllers!.runUntilIdle();
    const nodes = (await t.api('GET', '/api/v1/nodes')).json.items as any[];
    expect(nodes.map((n) => n.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
    // A restarted host finds its nodes and keeps them; node-3 is new with the new size.
    expect(nodes[2].status.capacity.cpu).toBe('2');
    expect((await t.runtime.server()).controllers!.enabled).not.toContain('deployment');
    expect((await t.api('GET', '/api/v1/namespaces/default/configmaps/kept')).status).toBe(200);
  });
});
