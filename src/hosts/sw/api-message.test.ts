// An API request by message must get the answer a fetch of the same path gets from the worker:
// each case runs both ways against one API server and compares what the page would read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../../core/api';
import type { ApiResponse } from '../../core/meta/types';
import { answerApiMessage, isApiRequestMessage } from './api-message';
import { toApiRequest, toResponse } from './fetch-adapter';
import { restoreBridgedUserAgent } from './bridged-user-agent';
import { USER_AGENT_CARRIER } from '../bridge/protocol';
import type { ApiRequestMessage } from './protocol';

let api: ApiServer;
beforeAll(async () => {
  api = await createApiServer();
});
afterAll(async () => {
  await api?.close();
});

const handle = (req: Parameters<ApiServer['handle']>[0]) => api.handle(req);
const ENCODER = new TextEncoder();
/** Headers that differ between any two requests. */
const withoutAuditId = (headers: Array<[string, string]>) => headers.filter(([name]) => name !== 'audit-id');

/** What the page reads from a fetch the worker answers (service-worker.ts's fetch path). */
async function viaFetch(msg: ApiRequestMessage) {
  const request = new Request(`http://page.test${msg.path}`, { method: msg.method, headers: msg.headers, body: msg.body as Uint8Array<ArrayBuffer> | undefined });
  const apiReq = await toApiRequest(request, msg.path);
  if ('tooLarge' in apiReq) throw new Error('too large');
  restoreBridgedUserAgent(apiReq.headers);
  const res = toResponse(await api.handle(apiReq)).response;
  return { status: res.status, headers: withoutAuditId([...res.headers]), body: new Uint8Array(await res.arrayBuffer()) };
}

async function viaMessage(msg: ApiRequestMessage) {
  const answer = await answerApiMessage(msg, handle);
  return { status: answer.status, headers: withoutAuditId(answer.headers), body: answer.body };
}

const get = (path: string, headers: Array<[string, string]> = []): ApiRequestMessage => ({ type: 'api', method: 'GET', path, headers });

describe('answerApiMessage', () => {
  it('answers a create, a get in JSON, YAML and protobuf, a table and a 404 as the fetch path does', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm1' }, data: { a: 'b' } };
    const created = await viaMessage({ type: 'api', method: 'POST', path: '/api/v1/namespaces/default/configmaps', headers: [['content-type', 'application/json'], [USER_AGENT_CARRIER, 'kubectl/v1.34.5 (linux/amd64)']], body: ENCODER.encode(JSON.stringify(cm)) });
    expect(created.status).toBe(201);
    // The carried User-Agent reached the API: kubectl is the field manager.
    expect(JSON.parse(new TextDecoder().decode(created.body)).metadata.managedFields[0].manager).toBe('kubectl');
    for (const msg of [
      get('/api/v1/namespaces/default/configmaps/m1', [['accept', 'application/json']]),
      get('/api/v1/namespaces/default/configmaps/m1', [['accept', 'application/yaml']]),
      get('/api/v1/namespaces/default/configmaps/m1', [['accept', 'application/vnd.kubernetes.protobuf']]),
      get('/api/v1/namespaces/default/configmaps?limit=1', [['accept', 'application/json;as=Table;v=v1;g=meta.k8s.io']]),
      get('/api/v1/namespaces/default/configmaps/none'),
    ]) {
      const [fetched, messaged] = [await viaFetch(msg), await viaMessage(msg)];
      expect(messaged).toEqual(fetched);
    }
    const proto = await viaMessage(get('/api/v1/namespaces/default/configmaps/m1', [['accept', 'application/vnd.kubernetes.protobuf']]));
    expect([...proto.body.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  });

  it('gives HEAD and 204-like answers no body, and keeps the body a buffer of its own', async () => {
    // A browser's fetch drops these bodies whatever the worker's Response holds.
    const answering = (status: number) => async (): Promise<ApiResponse> => ({ status, headers: { 'Content-Type': 'text/plain', 'Content-Length': '4' }, body: 'body' });
    expect(await answerApiMessage({ ...get('/healthz'), method: 'HEAD' }, answering(200))).toEqual({ type: 'api', status: 200, headers: [['content-type', 'text/plain']], body: new Uint8Array(0) });
    expect((await answerApiMessage(get('/healthz'), answering(204))).body.byteLength).toBe(0);
    expect(await answerApiMessage(get('/healthz'), answering(200))).toEqual({ type: 'api', status: 200, headers: [['content-type', 'text/plain']], body: ENCODER.encode('body') });
    const answer = await answerApiMessage(get('/api/v1/namespaces/default'), handle);
    expect(answer.body.byteLength).toBeGreaterThan(0);
    expect(answer.body.buffer.byteLength).toBe(answer.body.byteLength);
  });

  it('answers 413 for a body over the limit and 500 when the API throws, as the fetch path does', async () => {
    const big = await answerApiMessage({ type: 'api', method: 'PUT', path: '/api/v1/namespaces/default', headers: [], body: new Uint8Array(3 * 1024 * 1024 + 1) }, handle);
    expect(big.status).toBe(413);
    expect(JSON.parse(new TextDecoder().decode(big.body))).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    const broken = await answerApiMessage(get('/api'), (): Promise<ApiResponse> => Promise.reject(new Error('store closed')));
    expect(broken).toMatchObject({ status: 500, headers: [['content-type', 'application/json']] });
    expect(JSON.parse(new TextDecoder().decode(broken.body))).toMatchObject({ reason: 'InternalError', message: 'Internal error occurred: store closed' });
  });

  it('tells API requests from the other messages a worker gets', () => {
    expect(isApiRequestMessage(get('/api'))).toBe(true);
    expect(isApiRequestMessage({ type: 'hello', protocol: 6 })).toBe(false);
    expect(isApiRequestMessage({ type: 'api', method: 'GET' })).toBe(false);
    expect(isApiRequestMessage(undefined)).toBe(false);
  });
});
