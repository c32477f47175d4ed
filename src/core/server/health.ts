// /healthz, /livez, /readyz with ?verbose and ?exclude=, and /<endpoint>/<check> — body and line
// format as kube-apiserver (k8s.io/apiserver/pkg/server/healthz).
import type { ApiResponse } from '../meta/types';

export interface HealthCheck {
  name: string;
  /** Resolves to an error message when failing, undefined when healthy. */
  check(): Promise<string | undefined> | string | undefined;
}

const TEXT = 'text/plain; charset=utf-8';

function text(status: number, body: string): ApiResponse {
  return { status, headers: { 'Content-Type': TEXT, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache, private' }, body };
}

/** Serve one health endpoint. `rest` is the path after the endpoint name ('' or '/<check>'). */
export async function serveHealth(endpoint: string, rest: string, query: URLSearchParams, checks: HealthCheck[]): Promise<ApiResponse> {
  if (rest && rest !== '/') {
    const name = rest.slice(1);
    const c = checks.find((x) => x.name === name);
    if (!c) return text(404, '404 page not found\n');
    const err = await c.check();
    if (err !== undefined) return text(500, `internal server error: ${err}\n`);
    return text(200, 'ok');
  }
  const excluded = new Set<string>();
  for (const v of query.getAll('exclude')) for (const n of v.split(',')) if (n.trim()) excluded.add(n.trim());
  const lines: string[] = [];
  let failed = false;
  for (const c of checks) {
    if (excluded.has(c.name)) {
      excluded.delete(c.name);
      lines.push(`[+]${c.name} excluded: ok`);
      continue;
    }
    const err = await c.check();
    if (err !== undefined) {
      failed = true;
      lines.push(`[-]${c.name} failed: reason withheld`);
    } else {
      lines.push(`[+]${c.name} ok`);
    }
  }
  // Excludes that name no check are reported, as kube-apiserver does.
  if (excluded.size) lines.push(`warn: some health checks cannot be excluded: no matches for ${[...excluded].map((n) => JSON.stringify(n)).join(',')}`);
  if (failed) return text(500, `${lines.join('\n')}\n${endpoint} check failed\n`);
  if (query.has('verbose')) return text(200, `${lines.join('\n')}\n${endpoint} check passed\n`);
  return text(200, 'ok');
}

const POST_START_HOOKS = [
  'poststarthook/start-kube-apiserver-admission-initializer',
  'poststarthook/generic-apiserver-start-informers',
  'poststarthook/priority-and-fairness-config-consumer',
  'poststarthook/priority-and-fairness-filter',
  'poststarthook/start-apiextensions-informers',
  'poststarthook/start-apiextensions-controllers',
  'poststarthook/crd-informer-synced',
  'poststarthook/bootstrap-controller',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
  'poststarthook/priority-and-fairness-config-producer',
  'poststarthook/start-cluster-authentication-info-controller',
  'poststarthook/aggregator-reload-proxy-client-cert',
  'poststarthook/start-kube-aggregator-informers',
  'poststarthook/apiservice-registration-controller',
  'poststarthook/apiservice-status-available-controller',
  'poststarthook/kube-apiserver-autoregistration',
  'autoregister-completion',
  'poststarthook/apiservice-openapi-controller',
];

/** The checks of each endpoint; `storage` answers for the backend, `shuttingDown` for readyz. */
export function healthChecks(storage: () => Promise<string | undefined>, started: () => boolean, shuttingDown: () => boolean): Record<string, HealthCheck[]> {
  const ping: HealthCheck = { name: 'ping', check: () => undefined };
  const log: HealthCheck = { name: 'log', check: () => undefined };
  const etcd: HealthCheck = { name: 'etcd', check: storage };
  const hooks: HealthCheck[] = POST_START_HOOKS.map((name) => ({ name, check: () => (started() ? undefined : 'not finished') }));
  const informer: HealthCheck = { name: 'informer-sync', check: () => (started() ? undefined : 'not synced') };
  const shutdown: HealthCheck = { name: 'shutdown', check: () => (shuttingDown() ? 'process is shutting down' : undefined) };
  return {
    healthz: [ping, log, etcd, ...hooks],
    livez: [ping, log, etcd, ...hooks],
    readyz: [ping, log, etcd, informer, ...hooks, shutdown],
  };
}
