// Asks the Service Worker controlling this page for one API answer by message instead of fetch
// (decision 0046): a fetch the worker answers costs ~3 ms in headless Chromium, of which the API
// takes a fraction; a message round trip to the same worker ~0.8 ms. Used for the kubectl
// bridge's requests, which the page only relays and never needs as a Response.
import type { ApiAnswerMessage, ApiRequestMessage } from '../protocol';

/**
 * Headers the browser adds to a page's fetch before the worker sees it (seen in Chromium 156):
 * `Accept` (any type) when the page set none, and its own User-Agent. The API reads both (content
 * negotiation; pretty JSON and field managers for a `Mozilla/` agent), so a message carries them
 * too and the answer is the one a fetch would have had. (Chromium's `sec-ch-ua*` hints are left
 * out: nothing in the API reads them.)
 */
function withBrowserDefaults(headers: Array<[string, string]>): Array<[string, string]> {
  const out = headers.slice();
  if (!out.some(([name]) => name === 'accept')) out.push(['accept', '*/*']);
  if (!out.some(([name]) => name === 'user-agent')) out.push(['user-agent', navigator.userAgent]);
  return out;
}

/**
 * The worker's answer, or undefined when no worker controls the page (the caller fetches then).
 * ServiceWorker.postMessage wakes a stopped worker and keeps it running until it answered, as a
 * fetch event would; the request body's bytes are handed over, not copied.
 */
export function askWorker(msg: ApiRequestMessage): Promise<ApiAnswerMessage> | undefined {
  const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker?.controller;
  if (!worker) return undefined;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e: MessageEvent<ApiAnswerMessage>) => {
      channel.port1.close();
      resolve(e.data);
    };
    const sent: ApiRequestMessage = { ...msg, headers: withBrowserDefaults(msg.headers) };
    worker.postMessage(sent, msg.body ? [channel.port2, msg.body.buffer] : [channel.port2]);
  });
}
