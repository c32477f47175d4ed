// Start-up configuration of the served API: --runtime-config filters the built-ins in the catalog
// and --feature-gates wraps the request handler. Both fail start-up on invalid text.
import type { ApiRequest, ApiResponse } from '../meta/types';
import type { Catalog } from '../registry/catalog';
import type { ResourceInfo } from '../schema/resource-info';
import { parseRuntimeConfig } from './runtime-config';
import { applyFeatureGates, parseFeatureGates, type FeatureGates } from './runtime-config-gates';
import { errorToResponse } from '../handlers/respond';
import { pathNotFound } from '../meta/status';

type Handle = (req: ApiRequest) => Promise<ApiResponse>;

export interface ServingConfig {
  /** Wraps the dispatcher with what the feature gates change per request. */
  wrap(handle: Handle): Handle;
  /** The gates' states, for the registry code a gate switches (CRD validation rules). */
  gates: FeatureGates;
}

export function configureServing(catalog: Catalog, builtins: readonly ResourceInfo[], opts: { runtimeConfig?: string; featureGates?: string }): ServingConfig {
  const gates = parseFeatureGates(opts.featureGates);
  for (const warning of gates.warnings) console.warn(warning);
  if (opts.runtimeConfig) {
    const runtime = parseRuntimeConfig(opts.runtimeConfig, builtins);
    catalog.setBuiltinFilter((info) => runtime.enabled(info));
  }
  return { wrap: (handle) => applyFeatureGates(gates.enabled('OpenAPIV3') ? handle : withoutOpenApiV3(handle), gates), gates };
}

/** With OpenAPIV3 off (v1.23's default), `/openapi/v3` and everything under it is a 404 like any unknown path. */
function withoutOpenApiV3(handle: Handle): Handle {
  return (req) => {
    const q = req.url.indexOf('?');
    const path = q < 0 ? req.url : req.url.slice(0, q);
    if (path === '/openapi/v3' || path.startsWith('/openapi/v3/')) return Promise.resolve(errorToResponse(pathNotFound()));
    return handle(req);
  };
}
