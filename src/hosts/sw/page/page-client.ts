// The page's side of the browser host: register the worker, wait until it controls the page,
// check protocol versions, and read the host status. A worker from another deployment with an
// incompatible protocol is updated and the page reloads once the new one has taken over.
import { ADMIN_PREFIX, PROTOCOL_VERSION, normalizeBase, type ClockAction, type HostClock, type HostRevision, type HostSettings, type HostStatus, type PageMessage, type SettingsAnswer, type WorkerMessage } from '../protocol';
import type { AuditEvent } from '../../../core/server/audit';

// Pages serve admission webhooks on their own origin (see webhook-transport.ts for the worker side).
export { registerWebhookHandler, type AdmissionRequest, type AdmissionResponse, type AdmissionReviewRequest, type WebhookHandler } from './webhook-handlers';

const HELLO_TIMEOUT_MS = 5_000;

export class HostUnavailable extends Error {}

function controllerReady(): Promise<ServiceWorker> {
  const sw = navigator.serviceWorker;
  if (sw.controller) return Promise.resolve(sw.controller);
  return new Promise((resolve) => {
    sw.addEventListener('controllerchange', () => resolve(sw.controller!), { once: true });
  });
}

function hello(worker: ServiceWorker): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new HostUnavailable('the Service Worker did not answer')), HELLO_TIMEOUT_MS);
    channel.port1.onmessage = (e: MessageEvent<WorkerMessage>) => {
      clearTimeout(timer);
      resolve(e.data);
    };
    const msg: PageMessage = { type: 'hello', protocol: PROTOCOL_VERSION };
    worker.postMessage(msg, [channel.port2]);
  });
}

/** Registers the worker and resolves with its status once the API answers from this page. */
export async function connectWorker(baseUrl: string): Promise<HostStatus> {
  if (!('serviceWorker' in navigator)) throw new HostUnavailable('this browser has no Service Workers (or they are disabled here)');
  const base = normalizeBase(baseUrl);
  const registration = await navigator.serviceWorker.register(`${base}sw.js`, { type: 'module', scope: base });
  const worker = await controllerReady();
  const answer = await hello(worker);
  if (!answer.compatible) {
    // An older deployment still controls the page: fetch the new worker, reload under it.
    await registration.update();
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    location.reload();
    throw new HostUnavailable('upgrading the Service Worker');
  }
  return hostStatus(base);
}

export async function hostStatus(base: string): Promise<HostStatus> {
  const res = await fetch(`${normalizeBase(base)}${ADMIN_PREFIX.slice(1)}status`);
  if (!res.ok) throw new HostUnavailable(`status: HTTP ${res.status}`);
  return (await res.json()) as HostStatus;
}

/** The store's current revision (cheap: no API request behind it). */
export async function hostRevision(base: string): Promise<HostRevision> {
  const res = await fetch(`${normalizeBase(base)}${ADMIN_PREFIX.slice(1)}revision`);
  if (!res.ok) throw new HostUnavailable(`revision: HTTP ${res.status}`);
  return (await res.json()) as HostRevision;
}

export async function adminCall(base: string, action: 'reset' | 'import' | 'memory', body?: string): Promise<unknown> {
  const res = await fetch(`${normalizeBase(base)}${ADMIN_PREFIX.slice(1)}${action}`, { method: 'POST', body });
  const data: unknown = await res.json();
  if (!res.ok) throw new Error((data as { message?: string }).message ?? `HTTP ${res.status}`);
  return data;
}

/** Thrown when the API is not the browser host's (a Node host URL has no admin endpoints). */
export class NoAdminEndpoints extends Error {}

async function adminJson<T>(base: string, action: string, init?: RequestInit): Promise<{ status: number; data: T }> {
  const res = await fetch(`${normalizeBase(base)}${ADMIN_PREFIX.slice(1)}${action}`, init);
  if (res.status === 404) throw new NoAdminEndpoints('this API has no browser-host admin endpoints (settings and audit live in the page\'s Service Worker)');
  const text = await res.text();
  try {
    return { status: res.status, data: JSON.parse(text) as T };
  } catch {
    throw new Error(`${action}: HTTP ${res.status}: ${text.slice(0, 200)}`);
  }
}

/** The API settings in force. */
export async function readSettings(base: string): Promise<SettingsAnswer> {
  const { status, data } = await adminJson<SettingsAnswer & { message?: string }>(base, 'settings');
  if (status !== 200) throw new Error(data.message ?? `settings: HTTP ${status}`);
  return data;
}

/** Applies settings (a restart of the API); a refusal answers with `error` set and the old settings. */
export async function writeSettings(base: string, settings: HostSettings): Promise<SettingsAnswer> {
  const { status, data } = await adminJson<SettingsAnswer & { message?: string }>(base, 'settings', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(settings) });
  if (status !== 200 && status !== 422) throw new Error(data.message ?? `settings: HTTP ${status}`);
  return data;
}

/** The most recent audit events of the running API server, oldest first. */
export async function readAuditEvents(base: string, limit = 200): Promise<AuditEvent[]> {
  const { status, data } = await adminJson<{ events?: AuditEvent[]; message?: string }>(base, `audit?limit=${limit}`);
  if (status !== 200) throw new Error(data.message ?? `audit: HTTP ${status}`);
  return data.events ?? [];
}

/** The cluster clock (time, pause, speed); NoAdminEndpoints on a host without one (the Node host keeps real time). */
export async function readClock(base: string): Promise<HostClock> {
  const { status, data } = await adminJson<HostClock & { message?: string }>(base, 'clock');
  if (status !== 200) throw new Error(data.message ?? `clock: HTTP ${status}`);
  return data;
}

/** Pauses, resumes, steps (the controllers settle before it answers) or changes the speed of the cluster clock. */
export async function clockAction(base: string, action: ClockAction): Promise<HostClock> {
  const { status, data } = await adminJson<HostClock & { message?: string }>(base, 'clock', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(action) });
  if (status !== 200) throw new Error(data.message ?? `clock: HTTP ${status}`);
  return data;
}
