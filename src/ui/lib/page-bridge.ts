// The one kubectl bridge connection of this tab. It outlives the panel (navigating elsewhere in
// the page keeps kubectl served) and is made on first use with the browser's WebSocket, fetch
// (watches) and messages to the Service Worker (everything else), and this tab's sessionStorage
// (a reload of the tab resumes its pairing; another tab does not).
import { useSyncExternalStore } from 'react';
import { PageRelay, type BridgeState, type SocketLike } from '../../hosts/bridge/page-relay';
import type { RelayedRequestEntry } from '../../hosts/bridge/request-log';
import { askWorker } from '../../hosts/sw/page/worker-api';

let relay: PageRelay | undefined;

export function pageBridge(basePath: string): PageRelay {
  relay ??= new PageRelay({
    basePath,
    fetch: (url, init) => fetch(url, init),
    askWorker,
    openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    storage: typeof sessionStorage === 'undefined' ? undefined : sessionStorage,
  });
  return relay;
}

export function useBridgeState(bridge: PageRelay): BridgeState {
  return useSyncExternalStore(
    (listener) => bridge.subscribe(listener),
    () => bridge.state,
  );
}

export function useBridgeLog(bridge: PageRelay): readonly RelayedRequestEntry[] {
  return useSyncExternalStore(
    (listener) => bridge.log.subscribe(listener),
    () => bridge.log.list,
  );
}

/** `kubectl/v1.34.5 (linux/amd64) kubernetes/ebfac05` → `kubectl/v1.34.5`: the client at a glance. */
export function shortUserAgent(userAgent: string): string {
  return userAgent.split(' ')[0] || '(none)';
}
