// Path → what is being asked (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go, the ideas).
// `/api/v1/namespaces/ns/pods/p/status` → verb get, group "", version v1, namespace ns,
// resource pods, name p, subresource status.

export interface RequestInfo {
  /** False for /version, /healthz, discovery roots, /openapi... */
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection (resource requests); the lower-case method otherwise. */
  verb: string;
  /** 'api' or 'apis' for resource requests. */
  apiPrefix: string;
  group: string;
  version: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the prefix. */
  parts: string[];
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

export function parseQuery(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  if (q < 0) return { path: url, query: new URLSearchParams() };
  return { path: url.slice(0, q), query: new URLSearchParams(url.slice(q + 1)) };
}

function isTrue(v: string | null): boolean {
  return v === '1' || v === 'true';
}

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    group: '',
    version: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  const segs = path.split('/').filter((s, i) => i > 0 || s !== '');
  if (segs[0] === '') segs.shift();
  // Trailing slash: `/api/v1/pods/` is the same as `/api/v1/pods`.
  if (segs.length && segs[segs.length - 1] === '') segs.pop();
  const prefix = segs[0];
  if (prefix !== 'api' && prefix !== 'apis') return info;
  info.apiPrefix = prefix;
  let rest = segs.slice(1).map(safeDecode);
  if (prefix === 'apis') {
    if (rest.length < 2) return info; // /apis, /apis/<group>: discovery
    info.group = rest[0];
    info.version = rest[1];
    rest = rest.slice(2);
  } else {
    if (rest.length < 1) return info; // /api
    info.version = rest[0];
    rest = rest.slice(1);
  }
  if (rest.length === 0) return info; // /api/v1, /apis/g/v: discovery
  info.isResourceRequest = true;
  // Legacy watch paths: /api/v1/watch/namespaces/ns/pods.
  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  if (rest[0] === 'namespaces') {
    if (rest.length > 1) {
      info.namespace = rest[1];
      // /namespaces/ns is the namespace object itself; /namespaces/ns/status|finalize its subresources.
      if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2])) rest = rest.slice(2);
    }
  } else {
    info.namespace = '';
  }
  info.parts = rest;
  if (rest.length >= 3) info.subresource = rest[2];
  if (rest.length >= 2) info.name = rest[1];
  if (rest.length >= 1) info.resource = rest[0];
  // The namespace object: /api/v1/namespaces/ns is resource namespaces, name ns (namespace "ns" too, as upstream).
  if (info.resource === 'namespaces' && info.name) info.namespace = info.name;
  const isCollection = !info.name;
  switch (method) {
    case 'GET':
    case 'HEAD':
      info.verb = watchPath || (isCollection && isTrue(query.get('watch'))) ? 'watch' : isCollection ? 'list' : 'get';
      // A watch of one object by name: /api/v1/watch/namespaces/ns/pods/p.
      if (watchPath && !isCollection) info.verb = 'watch';
      break;
    case 'POST':
      info.verb = 'create';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = isCollection ? 'deletecollection' : 'delete';
      break;
    default:
      info.verb = method.toLowerCase();
  }
  return info;
}

function safeDecode(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const parsed = new WeakMap<object, { path: string; query: URLSearchParams; info: RequestInfo }>();

/**
 * Path, query and request info of a request, parsed once however many layers (metrics and
 * audit, dispatch) ask. A layer that rewrites the URL passes on a new request object.
 */
export function parseRequest(req: { method: string; url: string }): { path: string; query: URLSearchParams; info: RequestInfo } {
  let p = parsed.get(req);
  if (!p) {
    const { path, query } = parseQuery(req.url);
    p = { path, query, info: requestInfo(req.method, path, query) };
    parsed.set(req, p);
  }
  return p;
}
