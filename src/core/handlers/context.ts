// Per-request state shared by the handlers: the parsed request, its resource, and the response
// pieces that accumulate while it is served (warnings).
import type { ApiRequest } from '../meta/types';
import type { RequestInfo } from '../meta/requestinfo';
import type { ServedResource } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { queryBool } from '../meta/query-bool';

export interface RequestContext {
  req: ApiRequest;
  info: RequestInfo;
  query: URLSearchParams;
  /** The resource the path names (resolved from the catalog). */
  r: ServedResource;
  reg: RegistryContext;
  /** `Warning: 299 - "..."` texts to send. */
  warnings: string[];
}

/** A boolean query option, read as apimachinery reads it (see query-bool.ts). */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  return queryBool(query, name);
}
