import { describe, expect, it } from 'vitest';
import { curlCommand, fullPath, kubectlCommand, parseResourcePath, shellQuote } from './commands';

const applyBody = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n';

describe('shellQuote and fullPath', () => {
  it('quotes only what needs quoting, including single quotes', () => {
    expect(shellQuote('/api/v1/pods')).toBe('/api/v1/pods');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
    expect(shellQuote('/x?a=1&b=2')).toBe("'/x?a=1&b=2'");
  });

  it('merges the path query with the composed query', () => {
    expect(fullPath({ method: 'GET', path: 'api/v1/pods?limit=5', query: [['labelSelector', 'app=web'], ['continue', 'a b']] })).toBe('/api/v1/pods?limit=5&labelSelector=app%3Dweb&continue=a+b');
    expect(fullPath({ method: 'GET', path: '/api' })).toBe('/api');
  });

  it('parses resource paths', () => {
    expect(parseResourcePath('/apis/apps/v1/namespaces/default/deployments/web/scale?x=1')).toEqual({ group: 'apps', version: 'v1', namespace: 'default', resource: 'deployments', name: 'web', subresource: 'scale' });
    expect(parseResourcePath('/api/v1/namespaces/default')).toEqual({ group: '', version: 'v1', namespace: undefined, resource: 'namespaces', name: 'default', subresource: undefined });
    expect(parseResourcePath('/api/v1/nodes')).toMatchObject({ resource: 'nodes', name: undefined });
    expect(parseResourcePath('/livez')).toBeUndefined();
    expect(parseResourcePath('/apis/apps')).toBeUndefined();
  });
});

describe('curlCommand', () => {
  it('writes a GET with its headers', () => {
    expect(curlCommand({ method: 'GET', path: '/api/v1/namespaces/default/pods', query: [['limit', '2']], headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }, 'http://localhost:8080/'))
      .toBe("curl -sS -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' 'http://localhost:8080/api/v1/namespaces/default/pods?limit=2'");
  });

  it('streams watches with -N', () => {
    expect(curlCommand({ method: 'GET', path: '/api/v1/pods?watch=1&resourceVersion=10' }, 'http://h')).toBe("curl -sS -N 'http://h/api/v1/pods?watch=1&resourceVersion=10'");
    expect(curlCommand({ method: 'GET', path: '/api/v1/pods?watch=false' }, 'http://h')).not.toContain('-N');
  });

  it('sends a body through a here-document, picking a delimiter the body does not contain', () => {
    const cmd = curlCommand({ method: 'PATCH', path: '/apis/apps/v1/namespaces/default/deployments/web', query: [['fieldManager', 'alice']], headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: applyBody }, 'http://h');
    expect(cmd).toBe(`curl -sS -X PATCH -H 'Content-Type: application/apply-patch+yaml' --data-binary @- 'http://h/apis/apps/v1/namespaces/default/deployments/web?fieldManager=alice' <<'EOF'\n${applyBody}EOF`);
    const tricky = curlCommand({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: 'EOF' }, 'http://h');
    expect(tricky.endsWith("<<'EOF_1'\nEOF\nEOF_1")).toBe(true);
  });
});

describe('kubectlCommand', () => {
  it('uses raw verbs for GET, POST, PUT and DELETE', () => {
    expect(kubectlCommand({ method: 'GET', path: '/api/v1/pods', query: [['watch', '1']] }).command).toBe("kubectl get --raw '/api/v1/pods?watch=1'");
    expect(kubectlCommand({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: '{"kind":"ConfigMap"}' }).command).toBe(`kubectl create --raw /api/v1/namespaces/default/configmaps -f - <<'EOF'\n{"kind":"ConfigMap"}\nEOF`);
    expect(kubectlCommand({ method: 'PUT', path: '/api/v1/namespaces/default/configmaps/c', body: 'x: 1\n' }).command).toBe(`kubectl replace --raw /api/v1/namespaces/default/configmaps/c -f - <<'EOF'\nx: 1\nEOF`);
    expect(kubectlCommand({ method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/c?propagationPolicy=Foreground' })).toEqual({ command: "kubectl delete --raw '/api/v1/namespaces/default/configmaps/c?propagationPolicy=Foreground'", note: undefined });
  });

  it('turns an apply patch into kubectl apply --server-side with manager, force and dry run', () => {
    const eq = kubectlCommand({ method: 'PATCH', path: '/apis/apps/v1/namespaces/default/deployments/web?fieldManager=bob&force=true&dryRun=All', headers: { 'content-type': 'application/apply-patch+yaml' }, body: applyBody });
    expect(eq.command).toBe(`kubectl apply -n default --dry-run=server --server-side --field-manager=bob --force-conflicts -f - <<'EOF'\n${applyBody}EOF`);
    expect(kubectlCommand({ method: 'PATCH', path: '/apis/apps/v1/namespaces/d/deployments/web/status', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: 'x' }).command).toBeNull();
  });

  it('turns merge, JSON and strategic patches into kubectl patch with a qualified resource', () => {
    expect(kubectlCommand({ method: 'PATCH', path: '/apis/apps/v1/namespaces/default/deployments/web', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":{"replicas":3}}' }).command)
      .toBe(`kubectl patch deployments.v1.apps web -n default --type=merge -p '{"spec":{"replicas":3}}'`);
    expect(kubectlCommand({ method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/c?fieldManager=me', headers: { 'Content-Type': 'application/json-patch+json' }, body: '[{"op":"remove","path":"/data/a"}]' }).command)
      .toBe(`kubectl patch configmaps c -n default --field-manager=me --type=json -p '[{"op":"remove","path":"/data/a"}]'`);
    expect(kubectlCommand({ method: 'PATCH', path: '/apis/apps/v1/namespaces/default/deployments/web/scale', headers: { 'Content-Type': 'application/strategic-merge-patch+json' }, body: '{}' }).command)
      .toBe(`kubectl patch deployments.v1.apps web -n default --subresource=scale --type=strategic -p '{}'`);
  });

  it('says why when kubectl cannot send the request', () => {
    expect(kubectlCommand({ method: 'PATCH', path: '/api/v1/pods', headers: { 'Content-Type': 'application/merge-patch+json' } })).toEqual({ command: null, note: 'kubectl patches named objects only' });
    expect(kubectlCommand({ method: 'PATCH', path: '/api/v1/namespaces/d/pods/p', headers: { 'Content-Type': 'text/plain' } }).note).toBe('kubectl patch cannot send Content-Type text/plain');
    expect(kubectlCommand({ method: 'OPTIONS', path: '/api' })).toEqual({ command: null, note: 'kubectl cannot send a OPTIONS request' });
  });
});
