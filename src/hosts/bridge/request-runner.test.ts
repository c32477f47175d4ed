import { describe, expect, it } from 'vitest';
import { decodeFrame, type PageFrame } from './protocol';
import { runRequest, workerTarget, type RunnerDeps } from './request-runner';
import type { ApiAnswerMessage, ApiRequestMessage } from '../sw/protocol';

describe('workerTarget', () => {
  it('gives the URL to fetch and the API path under the base, with the query', () => {
    expect(workerTarget('/', '/api/v1/pods?limit=5')).toEqual({ url: '/api/v1/pods?limit=5', apiPath: '/api/v1/pods?limit=5' });
    expect(workerTarget('/sub/', '/apis/apps/v1')).toEqual({ url: '/sub/apis/apps/v1', apiPath: '/apis/apps/v1' });
  });

  it('refuses the app shell, the admin endpoints, and paths that become them once resolved', () => {
    expect(workerTarget('/', '/index.html')).toBeUndefined();
    expect(workerTarget('/', '/__playground/reset')).toBeUndefined();
    expect(workerTarget('/', '/api/../__playground/reset')).toBeUndefined();
    expect(workerTarget('/', '/api/%2e%2e/__playground/reset')).toBeUndefined();
    expect(workerTarget('/', '//elsewhere.test/api/v1')).toBeUndefined();
    expect(workerTarget('/', 'api/v1')).toBeUndefined();
  });
});

const ANSWER: ApiAnswerMessage = { type: 'api', status: 200, headers: [['content-type', 'application/json']], body: new TextEncoder().encode('{"kind":"Pod"}') };

function harness(answer: (msg: ApiRequestMessage) => Promise<ApiAnswerMessage> | undefined) {
  const frames: Array<{ header: PageFrame; body: Uint8Array }> = [];
  const asked: ApiRequestMessage[] = [];
  const fetched: string[] = [];
  const deps: RunnerDeps = {
    basePath: '/',
    send: (bytes) => frames.push(decodeFrame<PageFrame>(bytes)),
    askWorker: (msg) => {
      asked.push(msg);
      return answer(msg);
    },
    fetch: async (url) => {
      fetched.push(url);
      return new Response('{"type":"ADDED"}\n', { headers: { 'content-type': 'application/json' } });
    },
  };
  return { deps, frames, asked, fetched };
}

describe('runRequest', () => {
  it('asks the worker by message for anything but a watch, with the method and headers a fetch would carry', async () => {
    const h = harness(() => Promise.resolve(ANSWER));
    const body = new Uint8Array([1, 2, 3, 4]).subarray(1);
    const outcome = await runRequest({ id: 7, method: 'delete', path: '/api/v1/pods/p?dryRun=All', headers: [['Accept', 'application/json'], ['x-a', '1'], ['x-a', '2']], body }, h.deps, new AbortController().signal, () => undefined);
    expect(outcome).toEqual({ status: 200, state: 'done' });
    expect(h.asked).toEqual([{ type: 'api', method: 'DELETE', path: '/api/v1/pods/p?dryRun=All', headers: [['accept', 'application/json'], ['x-a', '1, 2']], body: new Uint8Array([2, 3, 4]) }]);
    // Its own buffer: the worker takes it over without cloning the whole frame.
    expect(h.asked[0]!.body!.buffer.byteLength).toBe(3);
    expect(h.fetched).toEqual([]);
    expect(h.frames.map((f) => [f.header, new TextDecoder().decode(f.body)])).toEqual([[{ t: 'res', id: 7, status: 200, headers: ANSWER.headers, stream: false }, '{"kind":"Pod"}']]);
  });

  it('fetches a watch (it streams), and fetches anything when no worker can be asked', async () => {
    const h = harness(() => undefined);
    await runRequest({ id: 1, method: 'GET', path: '/api/v1/pods?watch=1', headers: [], body: new Uint8Array(0) }, h.deps, new AbortController().signal, () => undefined);
    await runRequest({ id: 2, method: 'GET', path: '/api/v1/pods', headers: [], body: new Uint8Array(0) }, h.deps, new AbortController().signal, () => undefined);
    expect(h.asked.map((m) => m.path)).toEqual(['/api/v1/pods']);
    expect(h.fetched).toEqual(['/api/v1/pods?watch=1', '/api/v1/pods']);
    expect(h.frames.map((f) => f.header.t)).toEqual(['res', 'data', 'end', 'res']);
  });

  it('stops waiting for the worker when the client went away, and sends nothing', async () => {
    const h = harness(() => new Promise(() => undefined));
    const controller = new AbortController();
    const running = runRequest({ id: 3, method: 'GET', path: '/api/v1/pods', headers: [], body: new Uint8Array(0) }, h.deps, controller.signal, () => undefined);
    controller.abort();
    expect(await running).toEqual({ state: 'cancelled' });
    expect(h.frames).toEqual([]);
  });

  it('fails a request a fetch would refuse (a forbidden method) instead of asking the worker', async () => {
    const h = harness(() => Promise.resolve(ANSWER));
    const outcome = await runRequest({ id: 4, method: 'TRACE', path: '/api/v1/pods', headers: [], body: new Uint8Array(0) }, h.deps, new AbortController().signal, () => undefined);
    expect(outcome.state).toBe('failed');
    expect(h.asked).toEqual([]);
    expect(h.frames.map((f) => f.header.t)).toEqual(['fail']);
  });
});
