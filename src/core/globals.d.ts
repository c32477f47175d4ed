// The globals that both hosts (a Service Worker and Node >= 20) provide. The core may use these
// and nothing else from its environment; src/core/tsconfig.json compiles it against ES2022 plus
// this file so that DOM or Node types cannot leak in.

interface TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
declare var TextEncoder: { new (): TextEncoder };
interface TextDecoder { decode(input?: Uint8Array, options?: { stream?: boolean }): string }
declare var TextDecoder: { new (label?: string, options?: { fatal?: boolean }): TextDecoder };

interface URLSearchParams {
  get(name: string): string | null;
  getAll(name: string): string[];
  has(name: string): boolean;
  set(name: string, value: string): void;
  append(name: string, value: string): void;
  delete(name: string): void;
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, string]>;
  forEach(cb: (value: string, key: string) => void): void;
  toString(): string;
  [Symbol.iterator](): IterableIterator<[string, string]>;
}
declare var URLSearchParams: {
  new (init?: string | Record<string, string> | [string, string][]): URLSearchParams;
};

type TimerHandle = { readonly __timer?: never } | number;
declare function setTimeout(cb: () => void, ms?: number): any;
declare function clearTimeout(handle: any): void;
declare function setInterval(cb: () => void, ms?: number): any;
declare function clearInterval(handle: any): void;
declare function queueMicrotask(cb: () => void): void;
declare function atob(data: string): string;
declare function btoa(data: string): string;

declare var crypto: {
  getRandomValues<T extends Uint8Array>(array: T): T;
};
declare var performance: { now(): number };
declare var console: {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  debug(...args: unknown[]): void;
};
