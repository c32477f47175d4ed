// Placeholder until the dispatcher lands: answers /version so hosts can be built against it.
import type { ApiServer, ApiServerOptions } from '../api';
import type { ApiRequest, ApiResponse } from '../types';

export async function createApiServer(_opts: ApiServerOptions = {}): Promise<ApiServer> {
  let shuttingDown = false;
  return {
    async handle(req: ApiRequest): Promise<ApiResponse> {
      const path = req.url.split('?')[0];
      if (path === '/version') return { status: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ major: '1', minor: '23', gitVersion: 'v1.23.17' }) };
      if (path === '/readyz') return shuttingDown ? { status: 500, headers: {}, body: '[-]shutdown failed: reason withheld\nreadyz check failed\n' } : { status: 200, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'ok' };
      return { status: 404, headers: { 'Content-Type': 'application/json' }, body: '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}' };
    },
    beginShutdown() {
      shuttingDown = true;
    },
    async close() {},
  };
}
