// The Status bodies the bridge answers itself, worded as kube-apiserver words the same
// situations, so kubectl prints them like any other server error.

function status(code: number, reason: string, message: string, details?: Record<string, unknown>): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code });
}

/** kube-apiserver's answer to a request without valid credentials. */
export const UNAUTHORIZED = status(401, 'Unauthorized', 'Unauthorized');

export const TAB_NOT_CONNECTED_MESSAGE = 'the playground tab is not connected';

/** No tab paired, the paired tab went away, or its Service Worker stopped before answering. */
export function tabNotConnected(cause?: string): string {
  return status(503, 'ServiceUnavailable', TAB_NOT_CONNECTED_MESSAGE, cause ? { causes: [{ message: cause }] } : undefined);
}

/** Seconds a client is told to wait after a 429 (client-go honours Retry-After and retries). */
export const RETRY_AFTER_SECONDS = 1;

/** Over the in-flight bound: as kube-apiserver's max-in-flight filter says it, as a Status. */
export const TOO_MANY_REQUESTS = status(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: RETRY_AFTER_SECONDS });

/** A non-watch request the tab did not answer in time (kube-apiserver's request timeout). */
export const TIMEOUT = status(504, 'Timeout', 'Timeout: request did not complete within requested timeout - context deadline exceeded', {});

export function tooLarge(limit: number): string {
  return status(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}
