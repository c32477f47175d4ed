// The transport floor: a node:http server that answers every request with fixed bytes of a
// given size, after reading the request body. Whatever the API host costs above this is ours.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FloorServer {
  url: string;
  /** Answer with this many bytes from now on (and with this status). */
  setBody(size: number, status?: number): void;
  close(): Promise<void>;
}

export async function startFloorServer(size = 0): Promise<FloorServer> {
  let body = Buffer.alloc(size, 'x');
  let status = 200;
  // The same header set the API answers with (fixed values of the same length): the floor is the
  // cost of moving the same bytes, not of fewer headers.
  const uid = '00000000-0000-4000-8000-000000000000';
  const fixed = ['Audit-Id', uid, 'Cache-Control', 'no-cache, private', 'Content-Type', 'application/json', 'X-Kubernetes-Pf-Flowschema-Uid', uid, 'X-Kubernetes-Pf-Prioritylevel-Uid', uid];
  let headers = [...fixed, 'Content-Length', String(body.length)];
  const server = createServer({ keepAlive: true, noDelay: true }, (req, res) => {
    // Consume the body like the real host does, then answer the fixed bytes.
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setBody(n, s = 200) {
      body = Buffer.alloc(n, 'x');
      status = s;
      headers = [...fixed, 'Content-Length', String(body.length)];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
