// Deep links: the view lives in the URL hash so it can be shared and reloaded. The hash mirrors the
// API path (`#/apis/apps/v1/namespaces/default/deployments/web`, `#/api/v1/nodes`), plus
// `#/console`, `#/health`, `#/learn` and `#/learn/<lesson>/<step>` (1-based); a list may carry `?labelSelector=`.
import { parseResourcePath } from './commands';
import { groupVersionPath } from './api-paths';

export interface ResourceLocation {
  group: string;
  version: string;
  resource: string;
  /** Absent for cluster-scoped resources and for lists across all namespaces. */
  namespace?: string;
}

export type ViewState =
  | { view: 'home' }
  | { view: 'console' }
  | { view: 'health' }
  | { view: 'learn' }
  | { view: 'lesson'; lesson: string; step: number }
  | ({ view: 'list'; labelSelector?: string } & ResourceLocation)
  | ({ view: 'object'; name: string } & ResourceLocation);

export function parseHash(hash: string): ViewState {
  const raw = hash.replace(/^#/, '');
  const [path = '', query = ''] = raw.split(/\?(.*)/s, 2);
  if (path === '/console') return { view: 'console' };
  if (path === '/health') return { view: 'health' };
  if (path === '/learn') return { view: 'learn' };
  const lesson = /^\/learn\/([a-z0-9-]+)(?:\/([0-9]{1,3}))?$/.exec(path);
  if (lesson) return { view: 'lesson', lesson: lesson[1]!, step: Math.max(1, Number(lesson[2] ?? 1)) };
  const parsed = parseResourcePath(path);
  if (!parsed || parsed.subresource) return { view: 'home' };
  const location: ResourceLocation = { group: parsed.group, version: parsed.version, resource: parsed.resource };
  if (parsed.namespace !== undefined) location.namespace = parsed.namespace;
  if (parsed.name !== undefined) return { view: 'object', ...location, name: parsed.name };
  const labelSelector = new URLSearchParams(query).get('labelSelector');
  return labelSelector ? { view: 'list', ...location, labelSelector } : { view: 'list', ...location };
}

export function formatHash(state: ViewState): string {
  switch (state.view) {
    case 'home':
      return '#/';
    case 'console':
      return '#/console';
    case 'health':
      return '#/health';
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
      return state.labelSelector ? `#${path}?${new URLSearchParams({ labelSelector: state.labelSelector })}` : `#${path}`;
    }
  }
}
