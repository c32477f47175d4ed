// Starts ./server-process.ts in a child process and talks to it over IPC.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerProcessRequest } from './server-process';
import { childCaller } from './child-call';

export interface RemoteServer {
  apiUrl: string;
  floorUrl: string;
  /** The floor answers this many bytes with this status from now on. */
  setFloorBody(size: number, status?: number): Promise<void>;
  /** Creates `count` list-walk ConfigMaps (fixtures.ts) at `path` inside the server process. */
  fillWalk(count: number, path: string): Promise<void>;
  close(): Promise<void>;
}

type Omit2<T> = T extends unknown ? Omit<T, 'id'> : never;

export async function startRemoteServer(): Promise<RemoteServer> {
  const child = fork(fileURLToPath(new URL('./server-process.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<{ apiUrl: string; floorUrl: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server process exited with code ${code}`)));
    child.once('message', (m) => resolve(m as { apiUrl: string; floorUrl: string }));
  });
  const call = childCaller<Omit2<ServerProcessRequest>>(child);
  return {
    apiUrl: ready.apiUrl,
    floorUrl: ready.floorUrl,
    setFloorBody: (size, status = 200) => call({ op: 'floor-body', size, status }),
    fillWalk: (count, path) => call({ op: 'fill-walk', count, path }),
    async close() {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      await call({ op: 'close' });
      await exited;
    },
  };
}
