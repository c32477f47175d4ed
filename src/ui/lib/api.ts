// A small typed client for the playground's API, over fetch(apiBase + path) like any other
// client: discovery, Table pages, objects, server-side apply (and its dry run), create, replace,
// patches, delete, watches, OpenAPI and health. Failures reject with KubeApiError carrying the
// Status code, reason, message and causes.
import { KubeApiError, errorFromResponse } from './api-errors';
import { joinBase, queryString, resourcePath, type QueryValue, type ResourceRef } from './api-paths';
import { AGGREGATED_DISCOVERY_ACCEPT, parseAggregatedDiscovery, type GroupNode } from './discovery';
import { resumingWatch, type KubeObject, type ListResult, type WatchItem } from './watch';
import { parseWarningHeader } from './warnings';

export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

export type PatchType = 'merge' | 'json' | 'strategic';
export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export type PropagationPolicy = 'Foreground' | 'Background' | 'Orphan';

export interface TableColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
}

export interface TableRow {
  cells: unknown[];
  object?: KubeObject;
}

export interface TablePage {
  columns: TableColumn[];
  rows: TableRow[];
  resourceVersion: string;
  /** '' on the last page. */
  continue: string;
  remainingItemCount?: number;
}

export interface ListOptions {
  namespace?: string;
  limit?: number;
  continue?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** Hears the `Warning` header texts of one response (deprecations, fieldValidation=Warn, ...). */
export type WarningsListener = (warnings: string[]) => void;

export interface WriteOptions {
  dryRun?: boolean;
  fieldManager?: string;
  onWarnings?: WarningsListener;
}

export interface ApplyOptions extends WriteOptions {
  fieldManager: string;
  force?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  dryRun?: boolean;
  gracePeriodSeconds?: number;
  onWarnings?: WarningsListener;
}

export interface WatchOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  signal?: AbortSignal;
  reconnectDelayMs?: number;
  onResourceVersion?(rv: string): void;
}

export interface HealthReport {
  ok: boolean;
  code: number;
  /** The verbose text: one `[+]check ok` / `[-]check failed` line per check. */
  text: string;
}

export interface ApiClientOptions {
  apiBase: string;
  fetch?: typeof fetch;
  /** Sent with every request (the identity switcher's impersonation headers). */
  headers?: Readonly<Record<string, string>>;
  /** Every response with Warning headers, whoever asked: the page's warnings list. */
  onWarnings?(request: string, warnings: string[]): void;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Body text for a write: strings go as written (YAML or JSON), objects as JSON. */
function bodyText(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}

export function createApiClient(options: ApiClientOptions) {
  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  // Every request of this client goes through here: identity headers on, warnings reported.
  const doFetch = async (input: string, init: RequestInit & { onWarnings?: WarningsListener } = {}): Promise<Response> => {
    const { onWarnings, ...rest } = init;
    const res = await baseFetch(input, { ...rest, headers: { ...(rest.headers as Record<string, string> | undefined), ...options.headers } });
    const warnings = parseWarningHeader(res.headers.get('Warning'));
    if (warnings.length) {
      onWarnings?.(warnings);
      options.onWarnings?.(`${rest.method ?? 'GET'} ${input.slice(options.apiBase.replace(/\/+$/, '').length)}`, warnings);
    }
    return res;
  };
  const url = (path: string, query: Record<string, QueryValue> = {}) => joinBase(options.apiBase, path) + queryString(query);

  async function request<T>(method: string, path: string, query: Record<string, QueryValue>, init: { accept?: string; contentType?: string; body?: string; signal?: AbortSignal; onWarnings?: WarningsListener } = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: init.accept ?? 'application/json' };
    if (init.contentType) headers['Content-Type'] = init.contentType;
    const res = await doFetch(url(path, query), { method, headers, body: init.body, signal: init.signal, onWarnings: init.onWarnings });
    if (!res.ok) throw await errorFromResponse(res);
    const text = await res.text();
    try {
      return (text ? JSON.parse(text) : undefined) as T;
    } catch {
      throw new KubeApiError({ code: res.status, reason: 'InvalidResponse', message: `the server answered ${path} with something that is not JSON: ${text.slice(0, 200)}`, causes: [] });
    }
  }

  const writeQuery = (o: WriteOptions = {}) => ({ dryRun: o.dryRun ? 'All' : undefined, fieldManager: o.fieldManager });

  async function list<T extends KubeObject>(ref: ResourceRef, o: Omit<ListOptions, 'continue' | 'limit'> = {}, signal?: AbortSignal): Promise<ListResult<T>> {
    // Pages through the whole collection; the list's version is the first page's (the snapshot).
    const items: T[] = [];
    let token = '';
    let resourceVersion = '';
    do {
      const page = await request<{ items?: T[]; metadata?: { resourceVersion?: string; continue?: string } }>('GET', resourcePath(ref, o.namespace), { limit: 500, continue: token, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector }, { signal });
      items.push(...(page.items ?? []));
      resourceVersion ||= page.metadata?.resourceVersion ?? '';
      token = page.metadata?.continue ?? '';
    } while (token);
    return { items, resourceVersion };
  }

  return {
    apiBase: options.apiBase,
    url,

    /** Core (`/api`) then named groups (`/apis`), from aggregated discovery. */
    async discover(): Promise<GroupNode[]> {
      const [core, groups] = await Promise.all([
        request<unknown>('GET', '/api', {}, { accept: AGGREGATED_DISCOVERY_ACCEPT }),
        request<unknown>('GET', '/apis', {}, { accept: AGGREGATED_DISCOVERY_ACCEPT }),
      ]);
      return [...parseAggregatedDiscovery(core), ...parseAggregatedDiscovery(groups)];
    },

    /** One page of the server's Table view (columns as kubectl shows them). */
    async tablePage(ref: ResourceRef, o: ListOptions = {}): Promise<TablePage> {
      const t = await request<{ columnDefinitions?: TableColumn[]; rows?: TableRow[]; metadata?: { resourceVersion?: string; continue?: string; remainingItemCount?: number } }>(
        'GET',
        resourcePath(ref, o.namespace),
        { limit: o.limit, continue: o.continue, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector },
        { accept: TABLE_ACCEPT },
      );
      return {
        columns: t.columnDefinitions ?? [],
        rows: t.rows ?? [],
        resourceVersion: t.metadata?.resourceVersion ?? '',
        continue: t.metadata?.continue ?? '',
        remainingItemCount: t.metadata?.remainingItemCount,
      };
    },

    list,

    get<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): Promise<T> {
      return request<T>('GET', resourcePath(ref, namespace, name), {});
    },

    /** Server-side apply; `body` is YAML or JSON text (or an object). dryRun previews conflicts. */
    apply<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, body: unknown, o: ApplyOptions): Promise<T> {
      return request<T>('PATCH', resourcePath(ref, namespace, name), { ...writeQuery(o), force: o.force }, { contentType: APPLY_CONTENT_TYPE, body: bodyText(body), onWarnings: o.onWarnings });
    },

    create<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, body: unknown, o: WriteOptions = {}): Promise<T> {
      const text = bodyText(body);
      return request<T>('POST', resourcePath(ref, namespace), writeQuery(o), { contentType: looksLikeJson(text) ? 'application/json' : 'application/yaml', body: text, onWarnings: o.onWarnings });
    },

    replace<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, body: unknown, o: WriteOptions = {}): Promise<T> {
      const text = bodyText(body);
      return request<T>('PUT', resourcePath(ref, namespace, name), writeQuery(o), { contentType: looksLikeJson(text) ? 'application/json' : 'application/yaml', body: text, onWarnings: o.onWarnings });
    },

    patch<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, type: PatchType, body: unknown, o: WriteOptions = {}): Promise<T> {
      return request<T>('PATCH', resourcePath(ref, namespace, name), writeQuery(o), { contentType: PATCH_CONTENT_TYPES[type], body: bodyText(body), onWarnings: o.onWarnings });
    },

    /** Answers the deleted object (or a Status); with a finalizer, the object with deletionTimestamp. */
    delete<T = unknown>(ref: ResourceRef, namespace: string | undefined, name: string, o: DeleteOptions = {}): Promise<T> {
      return request<T>('DELETE', resourcePath(ref, namespace, name), { propagationPolicy: o.propagationPolicy, dryRun: o.dryRun ? 'All' : undefined, gracePeriodSeconds: o.gracePeriodSeconds }, { onWarnings: o.onWarnings });
    },

    /** Live events, resuming across server timeouts and relisting after 410; see resumingWatch. */
    watch<T extends KubeObject = KubeObject>(ref: ResourceRef, o: WatchOptions = {}): AsyncGenerator<WatchItem<T>> {
      return resumingWatch<T>({
        resourceVersion: o.resourceVersion,
        signal: o.signal,
        reconnectDelayMs: o.reconnectDelayMs,
        onResourceVersion: o.onResourceVersion,
        relist: (signal) => list<T>(ref, o, signal),
        open: (rv, signal) =>
          doFetch(url(resourcePath(ref, o.namespace), { watch: 1, resourceVersion: rv, allowWatchBookmarks: true, labelSelector: o.labelSelector, fieldSelector: o.fieldSelector }), {
            headers: { Accept: 'application/json' },
            signal,
          }),
      });
    },

    /** `/openapi/v3` index: group-version path → its document URL. */
    async openapiIndex(): Promise<Record<string, string>> {
      const doc = await request<{ paths?: Record<string, { serverRelativeURL?: string }> }>('GET', '/openapi/v3', {});
      return Object.fromEntries(Object.entries(doc.paths ?? {}).map(([k, v]) => [k, v.serverRelativeURL ?? `/openapi/v3/${k}`]));
    },

    /** One OpenAPI v3 document, by its server-relative URL (query included). */
    openapiDocument(serverRelativeURL: string): Promise<unknown> {
      return request<unknown>('GET', serverRelativeURL, {});
    },

    /** `/livez?verbose` or `/readyz?verbose`: a failing check is a report with ok=false, not an exception. */
    async health(endpoint: 'livez' | 'readyz' | 'healthz'): Promise<HealthReport> {
      // Bare `?verbose`, as kubectl and curl users write it; kube only checks that the key is present.
      const res = await doFetch(`${url(`/${endpoint}`)}?verbose`, { headers: { Accept: 'text/plain' } });
      return { ok: res.ok, code: res.status, text: await res.text() };
    },
  };
}

function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}
