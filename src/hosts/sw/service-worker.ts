// The Service Worker entry: the whole Kubernetes API answered inside the browser from the
// host-free core over IndexedDB. Only API paths under the base URL (and the private admin
// prefix) are answered here; everything else goes to the network, with the offline app shell as
// fallback. The base URL is where this script lives, so a build for a sub-path needs no change.
import { ADMIN_PREFIX, DB_NAME, PROTOCOL_VERSION, apiPathFor, type PageMessage, type WorkerMessage } from './protocol';
import type { FetchEventLike, ServiceWorkerScopeLike } from './sw-env';
import { createApiRuntime } from './api-runtime';
import { hostStatus, toApiRequest, toResponse } from './fetch-adapter';
import { handleAdmin } from './admin';
import { restoreBridgedUserAgent } from './bridged-user-agent';
import { answerApiMessage, isApiRequestMessage } from './api-message';
import { dropOldShells, precacheShell, shellResponse } from './shell-cache';
import { WATCH_LIMITS } from './settings';
import { createSettingsStore } from './settings-store';
import { clusterCaOptions, createClusterCaStore } from './cluster-ca-store';
import { startupOptions } from './settings-apply';
import { WebhookClientRegistry } from './webhook-registry';
import { createClockAdmin } from './clock-admin';
import { PlaygroundClock } from '../../core/controllers/clock';
import { createSwWebhookTransport, handleWebhookMessage, type WebhookClients } from './webhook-transport';

declare const self: ServiceWorkerScopeLike;
/** Replaced at build time (vite `define`) with a per-build id. */
declare const __KP_BUILD_ID__: string;

const BUILD = typeof __KP_BUILD_ID__ === 'string' ? __KP_BUILD_ID__ : 'dev';
const BASE_URL = new URL('./', self.location.href).href;
const BASE_PATH = new URL(BASE_URL).pathname;

// The page's API settings (runtime config, feature gates, access control) in a database of their own.
const settingsStore = createSettingsStore({ dbName: `${DB_NAME}-settings` });
// The cluster CA and its key (the csrsigning controller signs with it), kept beside the settings.
const clusterCa = createClusterCaStore({ dbName: `${DB_NAME}-pki` });
// Admission webhooks on this origin are served by the open pages that registered their paths.
const webhookClients = new WebhookClientRegistry();
const webhookTransport = createSwWebhookTransport({
  origin: new URL(BASE_URL).origin,
  registry: webhookClients,
  // sw-env declares only what the rest of the worker uses; matchAll is there at run time.
  clients: self.clients as unknown as WebhookClients,
  fetch: (url, init) => fetch(url, init),
});
// One cluster clock for the worker's life: a settings restart keeps cluster time (and a pause) going.
const clock = new PlaygroundClock();
const runtime = createApiRuntime({
  dbName: DB_NAME,
  // The saved settings choose the simulated cluster (on by default: nodes, scheduler, workload
  // controllers) and its clock speed.
  api: { ...WATCH_LIMITS, serverAddress: new URL(BASE_URL).host, webhookTransport, localWebhookOrigins: [new URL(BASE_URL).origin] },
  settings: async () => ({ ...(await startupOptions(settingsStore, (error) => console.warn(error), clock)), ...(await clusterCaOptions(clusterCa)) }),
});
const clockAdmin = createClockAdmin(runtime, clock, settingsStore);

self.addEventListener('install', (event) => {
  // A new deployment takes over at once; the page reloads itself when the protocol changed.
  event.waitUntil(precacheShell(BASE_URL, BUILD).catch(() => undefined).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all([self.clients.claim(), dropOldShells(BUILD)]));
});

self.addEventListener('message', (event) => {
  if (handleWebhookMessage(webhookClients, event)) return;
  const msg = event.data as PageMessage | undefined;
  const port = event.ports[0];
  if (!msg || !port) return;
  if (isApiRequestMessage(msg)) {
    // The kubectl bridge's requests (decision 0046): the answer goes back on the port; the
    // worker stays alive until it has, as it would for a fetch.
    event.waitUntil(answerApiMessage(msg, async (apiReq) => (await runtime.server()).handle(apiReq)).then((answer) => port.postMessage(answer)));
    return;
  }
  if (msg.type === 'hello') {
    const reply: WorkerMessage = { type: 'hello', protocol: PROTOCOL_VERSION, build: BUILD, compatible: msg.protocol === PROTOCOL_VERSION };
    port.postMessage(reply);
  }
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (url.origin !== new URL(BASE_URL).origin) return;
  const path = apiPathFor(url.pathname, BASE_PATH);
  if (path === undefined) {
    if (event.request.method === 'GET' && url.pathname.startsWith(BASE_PATH)) event.respondWith(shellResponse(event.request, BASE_URL, BUILD));
    return;
  }
  event.respondWith(answer(event, path, url.search));
});

async function answer(event: FetchEventLike, path: string, search: string): Promise<Response> {
  try {
    if (path.startsWith(ADMIN_PREFIX)) return await handleAdmin(path.slice(ADMIN_PREFIX.length), event.request, runtime, BUILD, settingsStore, clockAdmin);
    const apiReq = await toApiRequest(event.request, path + search);
    if ('tooLarge' in apiReq) return hostStatus(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${apiReq.limit}`);
    restoreBridgedUserAgent(apiReq.headers);
    const server = await runtime.server();
    const { response, done } = toResponse(await server.handle(apiReq));
    // Keeps the worker alive while a watch streams; watches end before the browser's event limit.
    if (done) event.waitUntil(done);
    return response;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return hostStatus(500, 'InternalError', `Internal error occurred: ${message}`);
  }
}
