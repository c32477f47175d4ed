// An API group served beside the built-in ones, as kube-aggregator proxies a group to an
// APIService's backend (metrics-server's metrics.k8s.io): its resources join discovery, and its
// requests go to its own handler after authentication and authorization, never to storage.
import type { ApiRequest, ApiResponse } from '../meta/types';
import type { ResourceInfo } from '../schema/resource-info';
import type { RequestInfo } from '../meta/requestinfo';

export interface AggregatedApi {
  /** The API group the backend serves (`metrics.k8s.io`). */
  readonly group: string;
  /** Its resources as discovery lists them (`definition` names each kind's OpenAPI definition). */
  readonly resources: readonly ResourceInfo[];
  /** The OpenAPI v2 definitions the backend publishes, merged into `/openapi/v2` while its APIService is available. */
  readonly definitions: Readonly<Record<string, Record<string, unknown>>>;
  handle(req: ApiRequest, info: RequestInfo, query: URLSearchParams): Promise<ApiResponse>;
}
