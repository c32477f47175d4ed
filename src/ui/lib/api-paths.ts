// URL building for kube resources: `/api/v1/...` for the core group, `/apis/<group>/<version>/...`
// otherwise; namespaced collections under `/namespaces/<ns>/`.
export interface ResourceRef {
  group: string;
  version: string;
  /** Plural resource name, e.g. `deployments`. */
  resource: string;
  namespaced: boolean;
}

export function groupVersionPath(group: string, version: string): string {
  return group ? `/apis/${group}/${version}` : `/api/${version}`;
}

/** Collection or object path; `namespace` is ignored for cluster-scoped resources. */
export function resourcePath(ref: ResourceRef, namespace?: string, name?: string, subresource?: string): string {
  let path = groupVersionPath(ref.group, ref.version);
  if (ref.namespaced && namespace) path += `/namespaces/${encodeURIComponent(namespace)}`;
  path += `/${ref.resource}`;
  if (name !== undefined) path += `/${encodeURIComponent(name)}`;
  if (name !== undefined && subresource) path += `/${subresource}`;
  return path;
}

export type QueryValue = string | number | boolean | undefined | null;

/** `?a=1&b=x` with empty/undefined values left out; '' when nothing remains. */
export function queryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    params.append(k, v === true ? 'true' : String(v));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** apiBase may be `/`, `/sub/path/` or `http://host:8080`; paths always start with `/`. */
export function joinBase(apiBase: string, path: string): string {
  return apiBase.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

export function apiVersionOf(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
