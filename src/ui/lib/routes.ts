// The router's map: the one place that turns a URL hash into a view and back. The view lives in the
// hash so it can be shared and reloaded. The hash mirrors the API path
// (`#/apis/apps/v1/namespaces/default/deployments/web`, `#/api/v1/nodes`), plus `#/console`,
// `#/health`, `#/learn` and `#/learn/<lesson>/<step>` (1-based), the browser host's views
// (`#/settings`, `#/audit`, `#/webhooks`, `#/kubectl`) and scenario links (`#/scenario/<data>`); a
// list may carry `?labelSelector=&limit=&page=` (page 1-based) and the console its request
// (`#/console?method=&path=&query=&headers=&body=`), so every screen can be linked and reloaded.
// Components read the view from `useRoute` and change it with `navigate` (app/router.ts).
import { parseResourcePath } from './commands';
import { groupVersionPath } from './api-paths';

export interface ResourceLocation {
  group: string;
  version: string;
  resource: string;
  /** Absent for cluster-scoped resources and for lists across all namespaces. */
  namespace?: string;
}

/** The request console's fields; a field left out keeps the console's default. */
export interface ConsoleRequest {
  method?: string;
  path?: string;
  query?: string;
  headers?: string;
  body?: string;
}
const CONSOLE_FIELDS = ['method', 'path', 'query', 'headers', 'body'] as const;

/** The list's page size when the link names none. */
export const DEFAULT_LIST_LIMIT = 50;
/** Page sizes the list offers; a link with another one falls back to the default. */
export const LIST_LIMITS: readonly number[] = [10, 50, 100, 500, 1000];

/** Views of the browser host (its settings, audit log, webhooks and the kubectl bridge). */
export const HOST_VIEWS = ['settings', 'audit', 'webhooks', 'kubectl'] as const;
export type HostView = (typeof HOST_VIEWS)[number];

const SCENARIO_PATH = '/scenario/';

export type ViewState =
  | { view: 'home' }
  | { view: HostView }
  | { view: 'scenario'; data: string }
  | { view: 'console'; request?: ConsoleRequest }
  | { view: 'health' }
  | { view: 'learn' }
  | { view: 'lesson'; lesson: string; step: number }
  | ({ view: 'list'; labelSelector?: string; limit?: number; page?: number } & ResourceLocation)
  | ({ view: 'object'; name: string } & ResourceLocation);

export function parseHash(hash: string): ViewState {
  const raw = hash.replace(/^#/, '');
  // A scenario's data is base64url: it is the rest of the hash, whatever it holds.
  if (raw.startsWith(SCENARIO_PATH)) return { view: 'scenario', data: raw.slice(SCENARIO_PATH.length) };
  const [path = '', query = ''] = raw.split(/\?(.*)/s, 2);
  const host = HOST_VIEWS.find((v) => path === `/${v}`);
  if (host) return { view: host };
  if (path === '/console') {
    const params = new URLSearchParams(query);
    const request: ConsoleRequest = {};
    for (const field of CONSOLE_FIELDS) {
      const value = params.get(field);
      if (value !== null) request[field] = value;
    }
    return Object.keys(request).length ? { view: 'console', request } : { view: 'console' };
  }
  if (path === '/health') return { view: 'health' };
  if (path === '/learn') return { view: 'learn' };
  const lesson = /^\/learn\/([a-z0-9-]+)(?:\/([0-9]{1,3}))?$/.exec(path);
  if (lesson) return { view: 'lesson', lesson: lesson[1]!, step: Math.max(1, Number(lesson[2] ?? 1)) };
  const parsed = parseResourcePath(path);
  if (!parsed || parsed.subresource) return { view: 'home' };
  const location: ResourceLocation = { group: parsed.group, version: parsed.version, resource: parsed.resource };
  if (parsed.namespace !== undefined) location.namespace = parsed.namespace;
  if (parsed.name !== undefined) return { view: 'object', ...location, name: parsed.name };
  const params = new URLSearchParams(query);
  const list: ViewState = { view: 'list', ...location };
  const labelSelector = params.get('labelSelector');
  if (labelSelector) list.labelSelector = labelSelector;
  const limit = Number(params.get('limit'));
  if (LIST_LIMITS.includes(limit) && limit !== DEFAULT_LIST_LIMIT) list.limit = limit;
  const page = Number(params.get('page'));
  if (Number.isSafeInteger(page) && page > 1) list.page = page;
  return list;
}

export function formatHash(state: ViewState): string {
  switch (state.view) {
    case 'home':
      return '#/';
    case 'console': {
      const params = new URLSearchParams();
      for (const field of CONSOLE_FIELDS) {
        const value = state.request?.[field];
        if (value !== undefined) params.set(field, value);
      }
      const query = params.toString();
      return query ? `#/console?${query}` : '#/console';
    }
    case 'health':
    case 'settings':
    case 'audit':
    case 'webhooks':
    case 'kubectl':
      return `#/${state.view}`;
    case 'scenario':
      return `#${SCENARIO_PATH}${state.data}`;
    case 'learn':
      return '#/learn';
    case 'lesson':
      return `#/learn/${state.lesson}/${state.step}`;
    case 'list':
    case 'object': {
      let path = groupVersionPath(state.group, state.version);
      if (state.namespace) path += `/namespaces/${encodeURIComponent(state.namespace)}`;
      path += `/${state.resource}`;
      if (state.view === 'object') return `#${path}/${encodeURIComponent(state.name)}`;
      const params = new URLSearchParams();
      if (state.labelSelector) params.set('labelSelector', state.labelSelector);
      if (state.limit !== undefined && state.limit !== DEFAULT_LIST_LIMIT) params.set('limit', String(state.limit));
      if (state.page !== undefined && state.page > 1) params.set('page', String(state.page));
      const query = params.toString();
      return query ? `#${path}?${query}` : `#${path}`;
    }
  }
}
