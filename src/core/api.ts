// The API server: one object, host-free. Hosts call createApiServer once and then handle() per
// request. Everything else in src/core hangs off this.
export type { ApiServer, ApiServerOptions } from './server/options';
export type { WebhookCall, WebhookTransport } from './admission/webhooks/call';

export { createApiServer } from './server/apiserver';
