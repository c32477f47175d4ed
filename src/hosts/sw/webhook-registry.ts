// The worker's record of which open page (Service Worker client id) serves which webhook path.
// Pages announce their full set of paths on every change; a closed tab disappears from
// `clients.matchAll()`, and its entry is dropped the next time the live ids are known.
import { normalizeWebhookPath } from './webhook-protocol';

export class WebhookClientRegistry {
  private byClient = new Map<string, Set<string>>();

  /** Replaces what one client serves; an empty list forgets the client. */
  announce(clientId: string, paths: readonly string[]): void {
    if (paths.length === 0) this.byClient.delete(clientId);
    else this.byClient.set(clientId, new Set(paths.map(normalizeWebhookPath)));
  }

  /** Forgets clients that are no longer open. */
  retain(liveIds: ReadonlySet<string>): void {
    for (const id of this.byClient.keys()) if (!liveIds.has(id)) this.byClient.delete(id);
  }

  /** The clients serving `path`, in the order they announced it first. */
  clientsFor(path: string): string[] {
    const p = normalizeWebhookPath(path);
    const out: string[] = [];
    for (const [id, paths] of this.byClient) if (paths.has(p)) out.push(id);
    return out;
  }

  /** The paths one client serves. */
  pathsOf(clientId: string): string[] {
    return [...(this.byClient.get(clientId) ?? [])];
  }

  /** Every path served by some client (for diagnostics and tests). */
  paths(): string[] {
    const all = new Set<string>();
    for (const paths of this.byClient.values()) for (const p of paths) all.add(p);
    return [...all].sort();
  }
}
