// The page's side of the browser host: register the worker, wait until it controls the page,
// check protocol versions, and read the host status. A worker from another deployment with an
// incompatible protocol is updated and the page reloads once the new one has taken over.
import { ADMIN_PREFIX, PROTOCOL_VERSION, normalizeBase, type HostStatus, type PageMessage, type WorkerMessage } from './protocol';

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

export async function adminCall(base: string, action: 'reset' | 'import', body?: string): Promise<unknown> {
  const res = await fetch(`${normalizeBase(base)}${ADMIN_PREFIX.slice(1)}${action}`, { method: 'POST', body });
  const data: unknown = await res.json();
  if (!res.ok) throw new Error((data as { message?: string }).message ?? `HTTP ${res.status}`);
  return data;
}
