// The command-line equivalents of a request composed in the request console: a curl command that
// sends exactly the same bytes, and the closest kubectl command (raw verbs for GET/POST/PUT/
// DELETE, `kubectl apply --server-side` or `kubectl patch` for PATCH), with `--as`/`--as-group`
// for impersonation headers.
import { impersonationFlags } from './identity';
export interface ComposedRequest {
  method: string;
  /** Path from the API root; may carry its own `?query`. */
  path: string;
  query?: ReadonlyArray<readonly [string, string]>;
  headers?: Readonly<Record<string, string>>;
  body?: string;
}

export interface KubectlEquivalent {
  /** null when kubectl has no way to send this request. */
  command: string | null;
  note?: string;
}

/** Quotes for a POSIX shell: plain words stay bare, everything else goes in single quotes. */
export function shellQuote(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The path with every query parameter (the path's own, then the composed ones). */
export function fullPath(req: ComposedRequest): string {
  const [base, own = ''] = req.path.split(/\?(.*)/s, 2) as [string, string?];
  const params = new URLSearchParams(own);
  for (const [k, v] of req.query ?? []) params.append(k, v);
  const path = base.startsWith('/') ? base : `/${base}`;
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function heredoc(body: string): string {
  let tag = 'EOF';
  for (let i = 1; body.split('\n').includes(tag); i++) tag = `EOF_${i}`;
  return `<<'${tag}'\n${body.endsWith('\n') ? body : `${body}\n`}${tag}`;
}

function headerValue(req: ComposedRequest, name: string): string | undefined {
  const entry = Object.entries(req.headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return entry?.[1];
}

/** curl against `server` (e.g. http://localhost:8080), streaming with -N for watches. */
export function curlCommand(req: ComposedRequest, server: string): string {
  const path = fullPath(req);
  const method = req.method.toUpperCase();
  const parts = ['curl', '-sS'];
  const watch = new URLSearchParams(path.split('?')[1] ?? '').get('watch');
  if (watch && watch !== '0' && watch !== 'false') parts.push('-N'); // print events as they arrive
  if (method !== 'GET' || req.body) parts.push('-X', method);
  for (const [k, v] of Object.entries(req.headers ?? {})) parts.push('-H', shellQuote(`${k}: ${v}`));
  const url = shellQuote(server.replace(/\/+$/, '') + path);
  if (!req.body) return [...parts, url].join(' ');
  return [...parts, '--data-binary', '@-', url, heredoc(req.body)].join(' ');
}

interface ParsedResourcePath {
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
}

/** Splits `/api/v1/namespaces/ns/pods/x/status` or `/apis/apps/v1/deployments` into its parts. */
export function parseResourcePath(path: string): ParsedResourcePath | undefined {
  const segs = path.split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
  let group: string;
  let rest: string[];
  if (segs[0] === 'api' && segs.length >= 3) {
    group = '';
    rest = segs.slice(1);
  } else if (segs[0] === 'apis' && segs.length >= 4) {
    group = segs[1]!;
    rest = segs.slice(2);
  } else {
    return undefined;
  }
  const [version, ...tail] = rest as [string, ...string[]];
  let namespace: string | undefined;
  // `namespaces/<ns>/<resource>...` is a namespaced path; `namespaces/<ns>` alone is a Namespace.
  if (tail[0] === 'namespaces' && tail.length >= 3) {
    namespace = tail[1];
    tail.splice(0, 2);
  }
  const [resource, name, subresource] = tail;
  if (!resource || tail.length > 3) return undefined;
  return { group, version, namespace, resource, name, subresource };
}

const PATCH_TYPES: Record<string, string> = {
  'application/merge-patch+json': 'merge',
  'application/json-patch+json': 'json',
  'application/strategic-merge-patch+json': 'strategic',
};

export function kubectlCommand(req: ComposedRequest): KubectlEquivalent {
  const equivalent = kubectlVerbCommand(req);
  const as = impersonationFlags(req.headers).map(shellQuote);
  if (!equivalent.command || !as.length) return equivalent;
  // Global flags may precede the verb; there they never mix with the verb's own -f/-p.
  return { ...equivalent, command: equivalent.command.replace(/^kubectl /, `kubectl ${as.join(' ')} `) };
}

function kubectlVerbCommand(req: ComposedRequest): KubectlEquivalent {
  const path = fullPath(req);
  const method = req.method.toUpperCase();
  const raw = shellQuote(path);
  const withBody = (cmd: string) => (req.body ? `${cmd} -f - ${heredoc(req.body)}` : cmd);
  switch (method) {
    case 'GET':
      return { command: `kubectl get --raw ${raw}` };
    case 'POST':
      return { command: withBody(`kubectl create --raw ${raw}`) };
    case 'PUT':
      return { command: withBody(`kubectl replace --raw ${raw}`) };
    case 'DELETE':
      return { command: `kubectl delete --raw ${raw}`, note: req.body ? 'kubectl delete --raw sends no body; put DeleteOptions in the query instead' : undefined };
    case 'PATCH':
      return kubectlPatch(req, path);
    default:
      return { command: null, note: `kubectl cannot send a ${method} request` };
  }
}

function kubectlPatch(req: ComposedRequest, path: string): KubectlEquivalent {
  const target = parseResourcePath(path);
  if (!target?.name) return { command: null, note: 'kubectl patches named objects only' };
  const query = new URLSearchParams(path.split('?')[1] ?? '');
  const contentType = (headerValue(req, 'Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  const flags: string[] = [];
  if (target.namespace) flags.push('-n', shellQuote(target.namespace));
  if (query.get('dryRun') === 'All') flags.push('--dry-run=server');
  const manager = query.get('fieldManager');
  if (contentType === 'application/apply-patch+yaml') {
    if (target.subresource) return { command: null, note: 'kubectl apply cannot target a subresource' };
    flags.push('--server-side', `--field-manager=${shellQuote(manager ?? 'kubectl')}`);
    if (query.get('force') === 'true') flags.push('--force-conflicts');
    return { command: `kubectl apply ${flags.join(' ')} -f - ${heredoc(req.body ?? '')}`, note: 'kubectl apply reads the object name and namespace from the body' };
  }
  const type = Object.hasOwn(PATCH_TYPES, contentType) ? PATCH_TYPES[contentType] : undefined;
  if (!type) return { command: null, note: `kubectl patch cannot send Content-Type ${contentType || '(none)'}` };
  const resource = target.group ? `${target.resource}.${target.version}.${target.group}` : target.resource;
  if (target.subresource) flags.push(`--subresource=${shellQuote(target.subresource)}`);
  if (manager) flags.push(`--field-manager=${shellQuote(manager)}`);
  flags.push(`--type=${type}`, '-p', shellQuote(req.body ?? ''));
  return { command: `kubectl patch ${resource} ${shellQuote(target.name)} ${flags.join(' ')}` };
}
