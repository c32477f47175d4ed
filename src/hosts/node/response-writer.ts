// ApiResponse → ServerResponse. Fixed bodies go out in one write with Content-Length (a body in
// parts as one writev); ApiStream bodies go out chunked, one chunk per sink.write, headers
// flushed first so a watch client sees the 200 before the first event.
import type { ServerResponse } from 'node:http';
import { isParts, isStream, partsLength, type ApiResponse, type ApiStream, type StreamSink } from '../../core/meta/types';

/** Streams currently open on this host, so shutdown can end them. */
export interface OpenStream {
  /** Cancel the core's stream and end the response cleanly. */
  shutdown(): void;
}

function headerList(headers: Record<string, string>, contentLength: number | undefined): string[] {
  // A flat [name, value, ...] array lets writeHead serialize without merging header maps.
  const out: string[] = [];
  for (const name in headers) {
    // We compute the length ourselves; a core-provided one could disagree with the bytes.
    if (name.length === 14 && name.toLowerCase() === 'content-length') continue;
    out.push(name, headers[name]);
  }
  if (contentLength !== undefined) out.push('Content-Length', String(contentLength));
  return out;
}

export function writeApiResponse(res: ServerResponse, apiRes: ApiResponse, open: Set<OpenStream>): void {
  const body = apiRes.body;
  if (body === undefined) {
    res.writeHead(apiRes.status, headerList(apiRes.headers, 0));
    res.end();
    return;
  }
  if (typeof body === 'string') {
    // Encode once: the length and the bytes come from the same buffer.
    const bytes = Buffer.from(body, 'utf8');
    res.writeHead(apiRes.status, headerList(apiRes.headers, bytes.length));
    res.end(bytes);
    return;
  }
  if (isParts(body)) {
    // One writev for the head and every part: the parts are never joined into a new buffer.
    res.writeHead(apiRes.status, headerList(apiRes.headers, partsLength(body)));
    res.cork();
    for (const part of body) res.write(part);
    res.end();
    res.uncork();
    return;
  }
  if (!isStream(body)) {
    res.writeHead(apiRes.status, headerList(apiRes.headers, body.byteLength));
    res.end(body);
    return;
  }
  startStream(res, apiRes, body, open);
}

function startStream(res: ServerResponse, apiRes: ApiResponse, stream: ApiStream, open: Set<OpenStream>): void {
  res.writeHead(apiRes.status, headerList(apiRes.headers, undefined));
  res.flushHeaders();
  let ended = false;
  const entry: OpenStream = {
    shutdown() {
      if (ended) return;
      finish();
      stream.cancel();
      res.end();
    },
  };
  const finish = () => {
    ended = true;
    open.delete(entry);
  };
  open.add(entry);
  res.on('close', () => {
    // The client went away (or shutdown destroyed the socket) before the core ended the stream.
    if (ended) return;
    finish();
    stream.cancel();
  });
  const sink: StreamSink = {
    write(chunk) {
      if (ended) return false;
      return res.write(chunk);
    },
    end() {
      if (ended) return;
      finish();
      res.end();
    },
  };
  stream.start(sink);
}

/** Ends every open stream: the core is told to stop, the client sees a clean chunked end. */
export function endOpenStreams(open: Set<OpenStream>): void {
  for (const entry of [...open]) entry.shutdown();
}
