// The bridge's one port. kubectl, helm and client libraries send their bearer token only over
// HTTPS (client-go's clientcmd drops credentials for http:// servers), while a page cannot open
// a WebSocket to a certificate it does not trust. So the port speaks both: a connection whose
// first byte starts a TLS handshake goes to the HTTPS server, any other to plain HTTP. Both serve
// the same API routes; the page's WebSocket (BRIDGE_SOCKET_PATH) is accepted on either, and
// only from the allowed page origins.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { BRIDGE_SOCKET_PATH } from '../../bridge/protocol';
import type { Bridge } from './bridge';

/** A TLS record of type handshake (22) opens every TLS connection. */
const TLS_HANDSHAKE = 0x16;

/** Pages allowed to pair unless --allowed-origin says otherwise: `npm start`'s, by IP and by name. */
export const DEFAULT_ALLOWED_ORIGINS = ['http://127.0.0.1:8080', 'http://localhost:8080'];

export interface BridgeServerOptions {
  port: number;
  host: string;
  tls: { key: string; cert: string };
  allowedOrigins: readonly string[];
  bridge: Bridge;
}

export interface BridgeServer {
  port: number;
  /** The HTTPS URL the kubeconfig names. */
  url: string;
  /** `host:port` as a person types it into the page. */
  address: string;
  close(): Promise<void>;
}

/**
 * The socket as a plain stream that yields `first` again. A TLS server handed a net.Socket reads
 * its file descriptor directly and would miss bytes already read (unshift only reaches JS
 * readers); handed any other stream, it reads through the stream API.
 */
function replaying(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _encoding, done) => void socket.write(chunk, done),
    final: (done) => {
      socket.end();
      done();
    },
    destroy: (err, done) => {
      socket.destroy(err ?? undefined);
      done(err);
    },
  });
  stream.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('error', (err) => stream.destroy(err));
  socket.on('close', () => stream.destroy());
  return stream;
}

function refuseUpgrade(socket: Duplex, code: number, reason: string): void {
  socket.end(`HTTP/1.1 ${code} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

export async function startBridgeServer(opts: BridgeServerOptions): Promise<BridgeServer> {
  const { bridge } = opts;
  const allowed = new Set(opts.allowedOrigins);
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    bridge.handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`bridge error: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== BRIDGE_SOCKET_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    // Browsers always send Origin on WebSocket handshakes: a page elsewhere on the web is refused.
    const origin = req.headers.origin ?? '';
    if (!allowed.has(origin)) return refuseUpgrade(socket, 403, 'Forbidden');
    sockets.handleUpgrade(req, socket, head, (ws) => bridge.accept(ws, origin));
  };
  const servers: Server[] = [
    createHttpServer({ keepAlive: true, noDelay: true }, onRequest),
    createHttpsServer({ keepAlive: true, noDelay: true, key: opts.tls.key, cert: opts.tls.cert }, onRequest),
  ];
  for (const server of servers) {
    server.on('upgrade', onUpgrade);
    // Watches are long-lived: no request timeout may cut them; informers keep connections idle.
    server.requestTimeout = 0;
    server.keepAliveTimeout = 65_000;
  }
  const [plain, secure] = servers as [Server, Server];
  const open = new Set<Socket>();
  const front = createNetServer((socket) => {
    // Head and body go out as separate writes: with Nagle's algorithm on, the second waits for
    // the client's delayed ACK (~40 ms per request).
    socket.setNoDelay(true);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      if (first[0] === TLS_HANDSHAKE) {
        secure.emit('connection', replaying(socket, first));
        return;
      }
      socket.unshift(first);
      plain.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(opts.port, opts.host, () => {
      front.off('error', reject);
      resolve();
    });
  });
  const port = (front.address() as AddressInfo).port;
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  return {
    port,
    url: `https://${host}:${port}`,
    address: `${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        bridge.close();
        sockets.close();
        front.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
