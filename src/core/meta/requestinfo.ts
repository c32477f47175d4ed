// Path → what is being asked (k8s.io/apiserver/pkg/endpoints/request/requestinfo.go, the ideas).
// `/api/v1/namespaces/ns/pods/p/status` → verb get, group "", version v1, namespace ns,
// resource pods, name p, subresource status.

import { isTrueQueryValue } from './query-bool';

export interface RequestInfo {
  /** False for /version, /healthz, discovery roots, /openapi... */
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection (resource requests; '' for other methods); the lower-case method otherwise. */
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

/**
 * A request target as Go's net/http and net/url read it: the path unescaped once (`%2F` is a `/`
 * to kube's routing, `+` stays `+`), or `path: undefined` when an escape is invalid (`%zz`: Go's
 * server answers 400 before any handler runs); the query as url.ParseQuery of go1.17, which
 * drops a pair with an invalid escape or a semicolon (no longer a separator) and keeps the rest.
 */
export function parseTarget(url: string): { path: string | undefined; rawPath: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  const rawPath = q < 0 ? url : url.slice(0, q);
  const path = rawPath.includes('%') ? goUnescape(rawPath, false) : rawPath;
  return { path, rawPath, query: q < 0 ? new URLSearchParams() : goParseQuery(url.slice(q + 1)) };
}

const HEX = /^[0-9a-fA-F]{2}$/;
/** A `%` not followed by two hex digits. */
const BAD_ESCAPE = /%(?![0-9a-fA-F]{2})/;
const utf8 = new TextDecoder();
const toUtf8 = new TextEncoder();

/** url.unescape: `%XX` → byte; in a query also `+` → space; undefined on a bad escape. */
function goUnescape(s: string, query: boolean): string | undefined {
  if (!s.includes('%')) return query ? s.replaceAll('+', ' ') : s;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '%') {
      if (!HEX.test(s.slice(i + 1, i + 3))) return undefined;
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === '+' && query) bytes.push(0x20);
    else if (c.charCodeAt(0) < 0x80) bytes.push(c.charCodeAt(0));
    else {
      // A non-ASCII character (a browser would have escaped it): its UTF-8 bytes.
      const cp = s.codePointAt(i)!;
      if (cp > 0xffff) i++;
      bytes.push(...toUtf8.encode(String.fromCodePoint(cp)));
    }
  }
  return utf8.decode(new Uint8Array(bytes));
}

function goParseQuery(raw: string): URLSearchParams {
  // URLSearchParams reads the rest the same way (`+` as a space, escapes as UTF-8 bytes).
  if (!raw.includes(';') && !BAD_ESCAPE.test(raw)) return new URLSearchParams(raw);
  const out = new URLSearchParams();
  for (const pair of raw.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = goUnescape(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = goUnescape(eq < 0 ? '' : pair.slice(eq + 1), true);
    if (key !== undefined && value !== undefined) out.append(key, value);
  }
  return out;
}

/** How many distinct request lines requestInfo remembers (object paths: one each). */
const INFO_CACHE_MAX = 1024;
const infos = new Map<string, RequestInfo>();

/**
 * The request info of a method, path and query, shared and frozen: the same collection path is
 * asked on every create or list (a split, a filter and slices each time), and only `watch` of
 * the query can change the answer.
 */
export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const watch = (method === 'GET' || method === 'HEAD') && isTrueQueryValue(query.get('watch'));
  const key = `${watch ? 'w' : '-'}${method} ${path}`;
  let info = infos.get(key);
  if (info === undefined) {
    info = computeRequestInfo(method, path, query);
    Object.freeze(info.parts);
    Object.freeze(info);
    if (infos.size >= INFO_CACHE_MAX) infos.clear();
    infos.set(key, info);
  }
  return info;
}

function computeRequestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
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
  let rest = segs.slice(1);
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
      info.verb = watchPath || (isCollection && isTrueQueryValue(query.get('watch'))) ? 'watch' : isCollection ? 'list' : 'get';
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
      // Any other token (`FOO`, a lowercase `get`) is no verb on a resource: kube's RequestInfo
      // leaves it empty, authorization sees "", and no route serves it (405).
      info.verb = '';
  }
  return info;
}

interface ParsedRequest {
  path: string;
  query: URLSearchParams;
  info: RequestInfo;
  /** The path has an invalid `%` escape: no handler should see it (see badRequestTarget). */
  invalidEscape: boolean;
}

const parsed = new WeakMap<object, ParsedRequest>();

/**
 * Path, query and request info of a request, parsed once however many layers (metrics and
 * audit, dispatch) ask. A layer that rewrites the URL passes on a new request object.
 */
export function parseRequest(req: { method: string; url: string }): ParsedRequest {
  let p = parsed.get(req);
  if (!p) {
    const { path, rawPath, query } = parseTarget(req.url);
    p = { path: path ?? rawPath, query, info: requestInfo(req.method, path ?? rawPath, query), invalidEscape: path === undefined };
    parsed.set(req, p);
  }
  return p;
}
