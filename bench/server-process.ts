// The server side of the CRUD benchmark in its own process: the API (memory backend) behind the
// Node host, and the transport floor, both here. The client process then measures the same
// thing for both — a request crossing loopback to another process — and its own work (building
// requests, reading answers, garbage) no longer competes with the server on the same event loop,
// which is also how etcd, the write-rate reference, runs.
//
// Started with child_process.fork; speaks over IPC (see ./remote-server.ts for the other end).
import { createApiServer } from '../src/core/api';
import { startNodeHost } from '../src/hosts/node/server';
import { startFloorServer } from './floor-server';
import { walkConfigMap } from './fixtures';

export type ServerProcessRequest =
  | { id: number; op: 'floor-body'; size: number; status: number }
  | { id: number; op: 'fill-walk'; count: number; path: string }
  | { id: number; op: 'close' };

const utf8 = new TextEncoder();

async function main(): Promise<void> {
  const api = await createApiServer();
  const host = await startNodeHost({ port: 0, host: '127.0.0.1', api });
  const floor = await startFloorServer();
  process.on('message', (m: ServerProcessRequest) => {
    if (m.op === 'floor-body') {
      floor.setBody(m.size, m.status);
      process.send!({ id: m.id });
    } else if (m.op === 'fill-walk') {
      // Straight into the API (no HTTP): the fill is set-up, not what is measured.
      void (async () => {
        for (let i = 0; i < m.count; i += 200) {
          const batch: Promise<unknown>[] = [];
          for (let j = i; j < Math.min(m.count, i + 200); j++) {
            batch.push(api.handle({ method: 'POST', url: m.path, headers: { 'content-type': 'application/json' }, body: utf8.encode(walkConfigMap(j)) }));
          }
          await Promise.all(batch);
        }
        process.send!({ id: m.id });
      })();
    } else if (m.op === 'close') {
      void Promise.all([floor.close(), host.close()])
        .then(() => api.close())
        .then(() => process.send!({ id: m.id }, () => process.exit(0)));
    }
  });
  process.send!({ ready: true, apiUrl: host.url, floorUrl: floor.url });
}

void main();
