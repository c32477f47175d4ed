// The webhooks this tab serves from the Webhooks panel, and a log of their recent calls. Lives
// outside React so handlers keep answering while the learner is on another view; the panel
// subscribes to show the list and the log.
import type { AdmissionResponse, AdmissionReviewRequest, WebhookHandler } from '../../hosts/sw/page/webhook-handlers';
import { compileHandler, summarizeRequest, summarizeResponse, toAdmissionResponse, type WebhookKind } from './webhook-functions';

export type RegisterHandler = (path: string, handler: WebhookHandler) => () => void;

export interface ServedWebhook {
  path: string;
  kind: WebhookKind;
  source: string;
}

export interface CallLogEntry {
  id: number;
  time: string;
  path: string;
  request: string;
  outcome: string;
  /** False when the function threw or returned something unusable (the call failed). */
  ok: boolean;
}

export interface ServingState {
  served: readonly ServedWebhook[];
  log: readonly CallLogEntry[];
}

export class WebhookServing {
  private stops = new Map<string, () => void>();
  private state: ServingState = { served: [], log: [] };
  private listeners = new Set<() => void>();
  private nextId = 1;

  constructor(
    private readonly register: RegisterHandler,
    private readonly logLimit = 50,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Serves `path` with the function body `source` (replacing what served it). Throws on a syntax error. */
  serve(path: string, kind: WebhookKind, source: string): void {
    const fn = compileHandler(source);
    const handler: WebhookHandler = async (review: AdmissionReviewRequest) => {
      const request = review.request;
      let response: AdmissionResponse;
      try {
        response = toAdmissionResponse(await fn(request));
      } catch (err) {
        this.record(path, summarizeRequest(request), `error: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`, false);
        throw err;
      }
      const ops = response.patch ? (JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(response.patch), (c) => c.charCodeAt(0)))) as unknown[]) : [];
      this.record(path, summarizeRequest(request), summarizeResponse(response, ops), true);
      return response;
    };
    this.stops.get(path)?.();
    this.stops.set(path, this.register(path, handler));
    const served = this.state.served.filter((s) => s.path !== path);
    this.update({ served: [...served, { path, kind, source }] });
  }

  /** Stops serving `path`: the next call finds no handler (failurePolicy decides). */
  stop(path: string): void {
    this.stops.get(path)?.();
    this.stops.delete(path);
    this.update({ served: this.state.served.filter((s) => s.path !== path) });
  }

  clearLog(): void {
    this.update({ log: [] });
  }

  snapshot = (): ServingState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private record(path: string, request: string, outcome: string, ok: boolean): void {
    const entry: CallLogEntry = { id: this.nextId++, time: this.now().toISOString().slice(11, 23), path, request, outcome, ok };
    this.update({ log: [entry, ...this.state.log].slice(0, this.logLimit) });
  }

  private update(patch: Partial<ServingState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }
}
