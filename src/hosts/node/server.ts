// The Node HTTP host: node:http with keep-alive, one ApiServer.handle call per request.
// The hot path is benchmarked against a server answering fixed bytes, so it builds no WHATWG
// Request/Response objects and allocates little beyond the ApiRequest itself.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { peerClientCertificate } from './client-cert-peer';
import type { ApiServer } from '../../core/api';
import { BODY_TOO_LARGE, MAX_REQUEST_BODY_BYTES, readApiRequest } from './request-adapter';
import { endOpenStreams, writeApiResponse, type OpenStream } from './response-writer';
import { answerClientErrors, HEAD_READ_LIMIT } from './client-errors';

export interface NodeHostOptions {
  port: number;
  host: string;
  api: ApiServer;
  /**
   * Serve HTTPS with this key and certificate (PEM) instead of plain HTTP. With `ca`, clients may
   * present a certificate, verified against it and handed to the core as clientCertificate.
   */
  tls?: { key: string; cert: string; ca?: string };
  /** Body limit in bytes; kube-apiserver's 3 MiB by default. */
  maxBodyBytes?: number;
}

export interface NodeHost {
  port: number;
  url: string;
  /** Stops accepting, ends open streams, waits for in-flight requests (forcing sockets after ~2 s). */
  close(): Promise<void>;
}

/** How long close() lets in-flight requests finish before it destroys their sockets. */
const CLOSE_GRACE_MS = 1500;

function tooLargeBody(limit: number): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Request entity too large: limit is ${limit}`, reason: 'RequestEntityTooLarge', code: 413 });
}

function internalErrorBody(message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500 });
}

function writeFixed(res: ServerResponse, status: number, body: string, closeConnection: boolean): void {
  const headers = ['Content-Type', 'application/json', 'Content-Length', String(Buffer.byteLength(body))];
  // The unread rest of an oversized body must not be parsed as the next request.
  if (closeConnection) headers.push('Connection', 'close');
  res.writeHead(status, headers);
  res.end(body);
}

export async function startNodeHost(opts: NodeHostOptions): Promise<NodeHost> {
  const { api } = opts;
  const limit = opts.maxBodyBytes ?? MAX_REQUEST_BODY_BYTES;
  const tooLarge = tooLargeBody(limit);
  const open = new Set<OpenStream>();
  const clientCa = opts.tls?.ca !== undefined;

  const dispatch = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      let apiReq = readApiRequest(req, limit);
      if (apiReq instanceof Promise) apiReq = await apiReq;
      if (apiReq === BODY_TOO_LARGE) {
        writeFixed(res, 413, tooLarge, true);
        return;
      }
      if (clientCa) apiReq.clientCertificate = peerClientCertificate(req.socket as TLSSocket);
      const apiRes = await api.handle(apiReq);
      writeApiResponse(res, apiRes, open);
    } catch (err) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      writeFixed(res, 500, internalErrorBody(err instanceof Error ? err.message : String(err)), false);
    }
  };

  // The response being written on each connection, so a parse error on a pipelined request
  // never writes into the middle of it.
  const inFlight = new WeakMap<Socket, ServerResponse>();
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(req.socket, res);
    void dispatch(req, res);
  };
  // kube-apiserver reads request heads up to Go's MaxHeaderBytes (1 MiB, plus 4 KiB of slack);
  // Node's default is 16 KiB, which a `notin (...)` selector of a few thousand values passes.
  const serverOptions = { keepAlive: true, noDelay: true, maxHeaderSize: HEAD_READ_LIMIT };
  const server = opts.tls
    ? createHttpsServer(
        // Ask for a certificate but let the handshake through without one or with a bad one:
        // token clients present none, and a bad one gets kube's 401 from the authenticator.
        { ...serverOptions, key: opts.tls.key, cert: opts.tls.cert, ...(clientCa ? { ca: opts.tls.ca, requestCert: true, rejectUnauthorized: false } : {}) },
        onRequest,
      )
    : createServer(serverOptions, onRequest);
  answerClientErrors(server, {
    inFlight: (socket) => inFlight.get(socket),
    serve: (apiReq, socket) => {
      if (clientCa) apiReq.clientCertificate = peerClientCertificate(socket as TLSSocket);
      return api.handle(apiReq);
    },
  });
  // Clients such as kubectl and informers keep connections for a long time between requests.
  server.keepAliveTimeout = 65_000;
  // Watches are long-lived: no request/headers timeout may cut them.
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = opts.host.includes(':') ? `[${opts.host}]` : opts.host;

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      endOpenStreams(open);
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      force.unref();
    });
    return closing;
  };

  return { port, url: `${opts.tls ? 'https' : 'http'}://${hostForUrl}:${port}`, close };
}
