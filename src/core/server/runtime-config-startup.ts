// Start-up configuration of the served API: --runtime-config filters the built-ins in the catalog
// and --feature-gates wraps the request handler. Both fail start-up on invalid text.
import type { ApiRequest, ApiResponse } from '../types';
import type { Catalog } from '../registry/catalog';
import type { ResourceInfo } from '../registry/types';
import { parseRuntimeConfig } from './runtime-config';
import { applyFeatureGates, parseFeatureGates, type FeatureGates } from './runtime-config-gates';

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
  return { wrap: (handle) => applyFeatureGates(handle, gates), gates };
}
