// Reason phrases for status lines: responses from a Service Worker (and HTTP/2) carry no
// statusText, but a raw response view should still read "404 Not Found".
const PHRASES: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified',
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  406: 'Not Acceptable', 409: 'Conflict', 410: 'Gone', 413: 'Request Entity Too Large', 415: 'Unsupported Media Type',
  422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export function statusLine(status: number, statusText: string): string {
  return `${status} ${statusText || PHRASES[status] || ''}`.trimEnd();
}
