import { describe, expect, it } from 'vitest';
import { formatHash, parseHash, type ViewState } from './routes';

describe('routes', () => {
  it('reads object, list and cluster-scoped links', () => {
    expect(parseHash('#/apis/apps/v1/namespaces/default/deployments/web')).toEqual({ view: 'object', group: 'apps', version: 'v1', namespace: 'default', resource: 'deployments', name: 'web' });
    expect(parseHash('#/api/v1/namespaces/kube-system/configmaps')).toEqual({ view: 'list', group: '', version: 'v1', namespace: 'kube-system', resource: 'configmaps' });
    expect(parseHash('#/api/v1/nodes')).toEqual({ view: 'list', group: '', version: 'v1', resource: 'nodes' });
    expect(parseHash('#/api/v1/namespaces/default')).toEqual({ view: 'object', group: '', version: 'v1', resource: 'namespaces', name: 'default' });
    expect(parseHash('#/api/v1/pods?labelSelector=app%3Dweb%2Ctier%21%3Ddb')).toEqual({ view: 'list', group: '', version: 'v1', resource: 'pods', labelSelector: 'app=web,tier!=db' });
  });

  it('reads the fixed views and falls back home on anything else', () => {
    expect(parseHash('#/console')).toEqual({ view: 'console' });
    expect(parseHash('#/health')).toEqual({ view: 'health' });
    expect(parseHash('#/learn')).toEqual({ view: 'learn' });
    expect(parseHash('#/learn/first-apply')).toEqual({ view: 'lesson', lesson: 'first-apply', step: 1 });
    expect(parseHash('#/learn/first-apply/2')).toEqual({ view: 'lesson', lesson: 'first-apply', step: 2 });
    for (const h of ['', '#', '#/', '#/nonsense', '#/apis/apps', '#/apis/apps/v1/namespaces/d/deployments/web/status']) expect(parseHash(h)).toEqual({ view: 'home' });
  });

  it('round-trips every state', () => {
    const states: ViewState[] = [
      { view: 'home' }, { view: 'console' }, { view: 'health' }, { view: 'learn' }, { view: 'lesson', lesson: 'conflict', step: 3 },
      { view: 'list', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default' },
      { view: 'list', group: '', version: 'v1', resource: 'pods', labelSelector: 'app in (a,b)' },
      { view: 'object', group: 'example.com', version: 'v1alpha1', resource: 'widgets', namespace: 'team a', name: 'w:1' },
      { view: 'object', group: '', version: 'v1', resource: 'nodes', name: 'node-1' },
    ];
    for (const s of states) expect(parseHash(formatHash(s))).toEqual(s);
    // The list's page and page size, and the console's request, are part of the view.
    const more: ViewState[] = [
      { view: 'list', group: '', version: 'v1', resource: 'configmaps', namespace: 'pages', limit: 10, page: 2 },
      { view: 'list', group: '', version: 'v1', resource: 'pods', labelSelector: 'app=web', page: 3 },
      { view: 'console', request: { method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/x', query: 'fieldManager=alice&force=true', headers: 'Content-Type: application/apply-patch+yaml', body: 'data:\n  a: "1" # & ? #' } },
      { view: 'console', request: { path: '/api/v1/pods' } },
    ];
    for (const s of more) expect(parseHash(formatHash(s))).toEqual(s);
    expect(formatHash(more[0]!)).toBe('#/api/v1/namespaces/pages/configmaps?limit=10&page=2');
    // Defaults and nonsense stay out of the state: one screen, one URL.
    expect(parseHash('#/api/v1/pods?limit=50&page=1')).toEqual({ view: 'list', group: '', version: 'v1', resource: 'pods' });
    expect(parseHash('#/api/v1/pods?limit=7&page=-2')).toEqual({ view: 'list', group: '', version: 'v1', resource: 'pods' });
    expect(parseHash('#/console?unknown=1')).toEqual({ view: 'console' });
    expect(formatHash(states[5]!)).toBe('#/apis/apps/v1/namespaces/default/deployments');
    expect(formatHash(states[7]!)).toBe('#/apis/example.com/v1alpha1/namespaces/team%20a/widgets/w%3A1');
  });

  it('maps the browser host\'s views and scenario links too', () => {
    for (const view of ['settings', 'audit', 'webhooks', 'kubectl'] as const) {
      expect(parseHash(`#/${view}`)).toEqual({ view });
      expect(formatHash({ view })).toBe(`#/${view}`);
    }
    expect(parseHash('#/scenario/AbC-_9?x')).toEqual({ view: 'scenario', data: 'AbC-_9?x' });
    expect(formatHash({ view: 'scenario', data: 'AbC' })).toBe('#/scenario/AbC');
  });
});
