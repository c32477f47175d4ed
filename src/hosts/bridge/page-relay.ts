// The page's end of the kubectl bridge: one WebSocket to `npm run bridge`, paired with the code
// the bridge printed, over which requests arrive and answers leave (request-runner.ts does each
// one). It reconnects with its session when the socket drops, and stops for good when the bridge
// says another tab took over. Knows nothing of React: the panel subscribes to its state and log.
import { BRIDGE_SOCKET_PATH, BadFrame, decodeFrame, type BridgeControl, type BridgeFrame, type PageControl } from './protocol';
import { RequestLog } from './request-log';
import { runRequest, userAgentOf, type RunnerDeps } from './request-runner';

/** The parts of a browser WebSocket the relay uses (the `ws` package's client has them too). */
export interface SocketLike {
  binaryType: string;
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
}

export type BridgeState =
  | { phase: 'idle' }
  | { phase: 'connecting'; address: string }
  | { phase: 'paired'; address: string; server: string; kubeconfig: string }
  | { phase: 'reconnecting'; address: string; attempt: number }
  | { phase: 'replaced'; address: string; message: string }
  | { phase: 'failed'; address: string; message: string };

/** What survives a reload of the tab (sessionStorage): where the bridge is and this tab's session. */
interface SavedSession {
  address: string;
  session: string;
}

export interface RelayDeps extends Omit<RunnerDeps, 'send'> {
  openSocket(url: string): SocketLike;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** Waits between reconnection attempts (1 s, 2 s, ... up to this). */
  maxRetryDelayMs?: number;
}

const STORAGE_KEY = 'kube-playground-bridge';
const OPEN = 1;

export class PageRelay {
  readonly log = new RequestLog();
  private current: BridgeState = { phase: 'idle' };
  private socket: SocketLike | undefined;
  private readonly inFlight = new Map<number, AbortController>();
  private readonly listeners = new Set<() => void>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private nextLogId = 1;

  constructor(private readonly deps: RelayDeps) {}

  get state(): BridgeState {
    return this.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Pairs this tab with the bridge at `address` (`127.0.0.1:8090`) using its one-time code. */
  pair(address: string, code: string): void {
    this.open(address.trim(), { type: 'pair', code }, 0);
  }

  /** Picks up the session of an earlier page load of this tab, if any. */
  resumeSaved(): void {
    const saved = this.saved();
    if (saved && this.current.phase === 'idle') this.open(saved.address, { type: 'resume', session: saved.session }, 0);
  }

  /** Stops serving kubectl from this tab (the bridge answers 503 until a tab pairs). */
  disconnect(): void {
    this.deps.storage?.removeItem(STORAGE_KEY);
    this.drop();
    this.setState({ phase: 'idle' });
  }

  private open(address: string, hello: PageControl, attempt: number): void {
    this.drop();
    this.setState(attempt === 0 ? { phase: 'connecting', address } : { phase: 'reconnecting', address, attempt });
    let socket: SocketLike;
    try {
      socket = this.deps.openSocket(`ws://${address}${BRIDGE_SOCKET_PATH}`);
    } catch (err) {
      this.setState({ phase: 'failed', address, message: `not a bridge address: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    this.socket = socket;
    socket.binaryType = 'arraybuffer';
    let paired = false;
    socket.onopen = () => socket.send(JSON.stringify(hello));
    socket.onmessage = (ev) => {
      if (this.socket !== socket) return;
      if (typeof ev.data === 'string') {
        const msg = JSON.parse(ev.data) as BridgeControl;
        if (msg.type === 'paired') paired = true;
        this.onControl(address, msg);
      } else this.onFrame(new Uint8Array(ev.data as ArrayBuffer));
    };
    socket.onerror = () => undefined; // onclose follows with the code
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.abortAll();
      const phase = this.current.phase;
      if (phase === 'replaced' || phase === 'failed' || phase === 'idle') return;
      const saved = this.saved();
      if (!paired && attempt === 0 && hello.type === 'pair') {
        this.setState({ phase: 'failed', address, message: `could not reach a bridge at ${address}: is \`npm run bridge\` running there, and does it allow this page's origin (${globalThis.location?.origin ?? 'this page'})?` });
        return;
      }
      if (!saved) return this.setState({ phase: 'failed', address, message: 'the bridge closed the connection' });
      // The bridge restarted or the network blinked: come back with the same session.
      const delay = Math.min(1000 * 2 ** attempt, this.deps.maxRetryDelayMs ?? 30_000);
      this.setState({ phase: 'reconnecting', address, attempt: attempt + 1 });
      this.retryTimer = setTimeout(() => this.open(address, { type: 'resume', session: saved.session }, attempt + 1), delay);
    };
  }

  private onControl(address: string, msg: BridgeControl): void {
    switch (msg.type) {
      case 'paired':
        this.deps.storage?.setItem(STORAGE_KEY, JSON.stringify({ address, session: msg.session } satisfies SavedSession));
        this.setState({ phase: 'paired', address, server: msg.server, kubeconfig: msg.kubeconfig });
        return;
      case 'replaced':
        this.deps.storage?.removeItem(STORAGE_KEY);
        this.setState({ phase: 'replaced', address, message: msg.message });
        return;
      case 'refused':
        if (this.saved()?.address === address) this.deps.storage?.removeItem(STORAGE_KEY);
        this.setState({ phase: 'failed', address, message: msg.message });
        return;
    }
  }

  private onFrame(bytes: Uint8Array): void {
    let frame: { header: BridgeFrame; body: Uint8Array };
    try {
      frame = decodeFrame<BridgeFrame>(bytes);
    } catch (err) {
      if (err instanceof BadFrame) return;
      throw err;
    }
    const { header, body } = frame;
    if (header.t === 'cancel') {
      this.inFlight.get(header.id)?.abort();
      return;
    }
    const socket = this.socket;
    if (!socket) return;
    const controller = new AbortController();
    this.inFlight.set(header.id, controller);
    const logId = this.nextLogId++;
    this.log.add({ id: logId, method: header.method, path: header.path, userAgent: userAgentOf(header.headers), startedAt: Date.now(), state: 'open' });
    const deps: RunnerDeps = {
      fetch: this.deps.fetch,
      askWorker: this.deps.askWorker,
      basePath: this.deps.basePath,
      send: (data) => {
        if (socket.readyState === OPEN) socket.send(data);
      },
    };
    void runRequest({ ...header, body }, deps, controller.signal, (status) => this.log.update(logId, { status, state: 'streaming' })).then((outcome) => {
      this.inFlight.delete(header.id);
      this.log.end(logId, outcome.state, outcome.error ? { error: outcome.error } : {});
    });
  }

  private saved(): SavedSession | undefined {
    const text = this.deps.storage?.getItem(STORAGE_KEY);
    if (!text) return undefined;
    try {
      return JSON.parse(text) as SavedSession;
    } catch {
      return undefined;
    }
  }

  private abortAll(): void {
    for (const controller of this.inFlight.values()) controller.abort();
    this.inFlight.clear();
  }

  /** Closes the socket without reconnecting. */
  private drop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const socket = this.socket;
    this.socket = undefined;
    this.abortAll();
    socket?.close(1000, 'closed by the page');
  }

  private setState(next: BridgeState): void {
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
