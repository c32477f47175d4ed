// The storage floor with its HTTP round trip (decision 0047): an HTTP server in its own process
// whose only work per request is the storage call that request needs, then fixed bytes of the
// API's answer size. It is an API server with no work of its own, so the host's time over it is
// the API's overhead on that storage; a raw storage call from the bench process skips the HTTP
// hop and the second process every request through any API server pays.
// - etcd: POST puts the stored bytes under a fresh key, GET ranges one key (linearizable), over
//   one etcd3 client that also holds a watch on the prefix it writes, as every kube-apiserver
//   holds its watch cache's (etcd then sends each write back, as it does to the host).
// - lmdb: POST is a durable put (commit after fsync) of the stored record, with the backend's
//   options, into an environment of its own.
// Started with child_process.fork (startRelayServer); configured and stopped over IPC.
import { fork } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { childCaller } from './child-call';

export type RelayConfig =
  | { kind: 'etcd'; servers: string[]; getKey: string; putPrefix: string; stored: string }
  | { kind: 'lmdb'; path: string; putPrefix: string; stored: string };

export interface RelayServer {
  url: string;
  /** The relay process, for CPU readings (bench/etcd-cpu.ts). */
  pid: number;
  /** Answer POSTs with `createBytes` (201) and GETs with `getBytes` (200). */
  setAnswers(createBytes: number, getBytes: number): Promise<void>;
  close(): Promise<void>;
}

type RelayMessage = { id: number; op: 'answers'; createBytes: number; getBytes: number } | { id: number; op: 'close' };

/** `cpuProfDir`: write the relay's V8 CPU profile there when it exits. */
export async function startRelayServer(config: RelayConfig, cpuProfDir?: string): Promise<RelayServer> {
  const profile = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir] : [];
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(config)], { execArgv: [...profile, '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`relay server exited with code ${code}`)));
    child.once('message', (m) => resolve((m as { url: string }).url));
  });
  const call = childCaller<Omit<RelayMessage, 'id'>>(child);
  return {
    url,
    pid: child.pid!,
    setAnswers: (createBytes, getBytes) => call({ op: 'answers', createBytes, getBytes } as Omit<RelayMessage, 'id'>),
    async close() {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      await call({ op: 'close' } as Omit<RelayMessage, 'id'>);
      await exited;
    },
  };
}

interface Storage {
  put(n: number): Promise<unknown>;
  get(): Promise<unknown>;
  close(): Promise<void>;
}

async function openStorage(config: RelayConfig): Promise<Storage> {
  const stored = Buffer.from(config.stored);
  if (config.kind === 'etcd') {
    const { Etcd3 } = await import('etcd3');
    const client = new Etcd3({ hosts: config.servers });
    const watcher = await client.watch().prefix(config.putPrefix).create();
    watcher.on('data', () => {});
    const getKey = Buffer.from(config.getKey);
    return {
      put: (n) => client.kv.put({ key: Buffer.from(`${config.putPrefix}${process.pid}-${n}`), value: stored }),
      get: () => client.kv.range({ key: getKey }),
      async close() {
        await watcher.cancel();
        client.close();
      },
    };
  }
  const { open } = await import('lmdb');
  // The LMDB backend's options (src/backends/lmdb/lmdb-backend.ts): a commit resolves after fsync.
  const env = open({ path: config.path, overlappingSync: false, noSync: false, maxDbs: 4 });
  const objects = env.openDB<{ v: string; c: number; m: number }, string>({ name: 'objects' });
  return {
    put: (n) => objects.put(`${config.putPrefix}${n}`, { v: config.stored, c: n, m: n }),
    get: () => Promise.resolve(objects.get(config.putPrefix)),
    close: () => env.close(),
  };
}

async function main(config: RelayConfig): Promise<void> {
  const storage = await openStorage(config);
  let createBody = Buffer.alloc(0);
  let getBody = Buffer.alloc(0);
  let puts = 0;
  // The API's header set with fixed values of the same length, as the transport floor sends.
  const uid = '00000000-0000-4000-8000-000000000000';
  const fixed = ['Audit-Id', uid, 'Cache-Control', 'no-cache, private', 'Content-Type', 'application/json', 'X-Kubernetes-Pf-Flowschema-Uid', uid, 'X-Kubernetes-Pf-Prioritylevel-Uid', uid];
  const answer = (res: ServerResponse, status: number, body: Buffer) => {
    res.writeHead(status, [...fixed, 'Content-Length', String(body.length)]);
    res.end(body);
  };
  const server = createServer({ keepAlive: true, noDelay: true }, (req: IncomingMessage, res: ServerResponse) => {
    req.on('data', () => {});
    req.on('end', () => {
      const post = req.method === 'POST';
      (post ? storage.put(puts++) : storage.get()).then(
        () => answer(res, post ? 201 : 200, post ? createBody : getBody),
        (error: unknown) => answer(res, 500, Buffer.from(String(error))),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.on('message', (m: RelayMessage) => {
    if (m.op === 'answers') {
      createBody = Buffer.alloc(m.createBytes, 'x');
      getBody = Buffer.alloc(m.getBytes, 'x');
      process.send!({ id: m.id });
    } else {
      server.closeAllConnections();
      server.close();
      void storage.close().then(() => process.send!({ id: m.id }, () => process.exit(0)));
    }
  });
  process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

// Run as the forked child: the config is the first argument.
if (process.send && process.argv[2]?.startsWith('{')) void main(JSON.parse(process.argv[2]) as RelayConfig);
