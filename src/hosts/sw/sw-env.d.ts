// The few Service Worker globals this host uses. The repository's tsconfig compiles with the DOM
// lib, which conflicts with lib.webworker, so the worker-only types are declared here instead.

export interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}

export interface FetchEventLike extends ExtendableEventLike {
  readonly request: Request;
  readonly clientId: string;
  respondWith(response: Response | Promise<Response>): void;
}

export interface ExtendableMessageEventLike extends ExtendableEventLike {
  readonly data: unknown;
  readonly ports: readonly MessagePort[];
}

export interface ClientsLike {
  claim(): Promise<void>;
}

export interface ServiceWorkerScopeLike {
  readonly location: { href: string };
  readonly clients: ClientsLike;
  readonly registration: { readonly scope: string };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEventLike) => void): void;
  addEventListener(type: 'message', fn: (e: ExtendableMessageEventLike) => void): void;
}
