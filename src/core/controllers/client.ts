// How a cluster component talks to the API: every call is an ordinary request through the
// server's own handler, with the component's identity and field manager, so admission,
// validation, managedFields, audit and watch treat it like any client. Nothing here touches
// storage.
import type { ApiRequest, ApiResponse, ApiStream } from '../meta/types';
import { bodyBytes, isStream } from '../meta/types';
import type { Obj } from '../registry/objects';

export type Handle = (req: ApiRequest) => Promise<ApiResponse>;

/** Who a component is: the user it authenticates as and the manager name its writes record. */
export interface Identity {
  username: string;
  groups: string[];
  fieldManager: string;
}

/** A failed call, with the Status the server answered. */
export class ApiCallError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: Obj;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function withQuery(path: string, query: Record<string, string | undefined>): string {
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`);
  if (!parts.length) return path;
  return path + (path.includes('?') ? '&' : '?') + parts.join('&');
}

const parseLine = (line: string) => JSON.parse(line) as WatchEvent;

export class ApiClient {
  /** Requests sent and not yet answered (the idle check of tests waits for none). */
  inFlight = 0;

  constructor(
    private readonly handle: Handle,
    readonly identity: Identity,
  ) {}

  private async send(method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse> {
    const req: ApiRequest = {
      method,
      url,
      headers: { accept: 'application/json', 'content-type': contentType, 'user-agent': `${this.identity.fieldManager}/v1.23.17 (linux/amd64) kubernetes/953be89` },
      body: body === undefined ? undefined : encoder.encode(JSON.stringify(body)),
      internalUser: { username: this.identity.username, groups: this.identity.groups },
    };
    this.inFlight++;
    try {
      return await this.handle(req);
    } finally {
      this.inFlight--;
    }
  }

  private async json(method: string, url: string, body?: unknown, contentType?: string): Promise<Obj> {
    const res = await this.send(method, url, body, contentType);
    if (isStream(res.body)) throw new Error(`${method} ${url}: unexpected stream`);
    const text = res.body === undefined ? '' : typeof res.body === 'string' ? res.body : decoder.decode(bodyBytes(res.body));
    const parsed = text ? (JSON.parse(text) as Obj) : {};
    if (res.status >= 300) throw new ApiCallError(res.status, String(parsed.reason ?? ''), `${method} ${url}: ${res.status} ${String(parsed.message ?? text)}`);
    return parsed;
  }

  get(path: string): Promise<Obj> {
    return this.json('GET', path);
  }

  /** The object, or undefined when it does not exist. */
  async getOrUndefined(path: string): Promise<Obj | undefined> {
    try {
      return await this.get(path);
    } catch (err) {
      if (err instanceof ApiCallError && err.code === 404) return undefined;
      throw err;
    }
  }

  list(path: string): Promise<Obj> {
    return this.json('GET', path);
  }

  create(path: string, obj: Obj): Promise<Obj> {
    return this.json('POST', withQuery(path, { fieldManager: this.identity.fieldManager }), obj);
  }

  update(path: string, obj: Obj): Promise<Obj> {
    return this.json('PUT', withQuery(path, { fieldManager: this.identity.fieldManager }), obj);
  }

  patch(path: string, patch: unknown, type: 'merge' | 'strategic' | 'json' = 'strategic'): Promise<Obj> {
    const contentType = type === 'merge' ? 'application/merge-patch+json' : type === 'json' ? 'application/json-patch+json' : 'application/strategic-merge-patch+json';
    return this.json('PATCH', withQuery(path, { fieldManager: this.identity.fieldManager }), patch, contentType);
  }

  delete(path: string, options?: Obj): Promise<Obj> {
    return this.json('DELETE', path, options);
  }

  /**
   * A watch from `resourceVersion`: events go to `onEvent` in order, `onEnd` runs once when the
   * stream ends (timeout, 410 in an ERROR event, server shutdown). Returns the stop function.
   * `decode` turns each line into its event (JSON.parse unless the caller keeps less).
   */
  async watch(path: string, resourceVersion: string, onEvent: (e: WatchEvent) => void, onEnd: () => void, decode: (line: string) => WatchEvent = parseLine): Promise<() => void> {
    const url = withQuery(path, { watch: '1', resourceVersion, allowWatchBookmarks: 'true' });
    const res = await this.send('GET', url);
    if (!isStream(res.body)) {
      onEnd();
      return () => undefined;
    }
    const stream: ApiStream = res.body;
    let buffered = '';
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      onEnd();
    };
    stream.start({
      write(chunk) {
        buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk);
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.trim()) onEvent(decode(line));
        }
        return true;
      },
      end,
    });
    return () => {
      stream.cancel();
      end();
    };
  }
}
