// Requests relayed from the kubectl bridge carry kubectl's User-Agent in a header of their own
// (a page's fetch cannot set User-Agent: the browser sends its own). Putting it back before the
// API sees the request keeps what kube-apiserver derives from it: the default field manager
// (`kubectl`, `helm`) and the audit events' userAgent.
import { USER_AGENT_CARRIER } from '../bridge/protocol';

/** Moves the carried User-Agent into `user-agent` (headers are lower-cased, as the fetch adapter makes them). */
export function restoreBridgedUserAgent(headers: Record<string, string>): void {
  const carried = headers[USER_AGENT_CARRIER];
  if (carried === undefined) return;
  headers['user-agent'] = carried;
  delete headers[USER_AGENT_CARRIER];
}
