// kube-apiserver's --feature-gates for the gates this API implements (v1.23 stages and
// defaults). Wording of errors and warnings follows k8s.io/component-base/featuregate: a locked
// GA gate cannot be switched off, an unknown gate fails start-up, deprecated and GA gates warn.
import type { ApiRequest, ApiResponse } from '../meta/types';
import { StartupError } from './runtime-config';

type Stage = 'ALPHA' | 'BETA' | 'GA' | 'Deprecated';

interface GateSpec {
  default: boolean;
  stage: Stage;
  /** GA gates locked to their default. */
  locked?: boolean;
}

const GATES: Record<string, GateSpec> = {
  APIListChunking: { default: true, stage: 'BETA' },
  APIPriorityAndFairness: { default: true, stage: 'BETA' },
  APIResponseCompression: { default: true, stage: 'BETA' },
  APIServerIdentity: { default: false, stage: 'ALPHA' },
  CustomResourceValidationExpressions: { default: false, stage: 'ALPHA' },
  DryRun: { default: true, stage: 'GA', locked: true },
  EfficientWatchResumption: { default: true, stage: 'BETA' },
  // Alpha and off by default in v1.23; on here on purpose: kubectl 1.24+ reads /openapi/v3
  // first (see docs/decisions/0022-openapi-v2.md). `OpenAPIV3=false` gives v1.23's 404.
  OpenAPIV3: { default: true, stage: 'ALPHA' },
  RemainingItemCount: { default: true, stage: 'BETA' },
  RemoveSelfLink: { default: true, stage: 'BETA' },
  ServerSideApply: { default: true, stage: 'GA', locked: true },
  ServerSideFieldValidation: { default: false, stage: 'ALPHA' },
  StorageVersionAPI: { default: false, stage: 'ALPHA' },
  StorageVersionHash: { default: true, stage: 'BETA' },
  WarningHeaders: { default: true, stage: 'GA', locked: true },
  WatchBookmark: { default: true, stage: 'GA', locked: true },
  DynamicKubeletConfig: { default: false, stage: 'Deprecated' },
};

export interface FeatureGates {
  enabled(name: string): boolean;
  /** Start-up warnings (deprecated and GA gates that were set). */
  warnings: string[];
}

/** Parses `A=true,B=false`; throws StartupError with component-base's message on a bad entry. */
export function parseFeatureGates(text: string | undefined): FeatureGates {
  const values = new Map<string, boolean>();
  const warnings: string[] = [];
  for (const entry of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq === -1) throw new StartupError(`missing bool value for ${entry}`);
    const name = entry.slice(0, eq).trim();
    const raw = entry.slice(eq + 1).trim();
    if (!['true', 'false', '1', '0', 't', 'f', 'TRUE', 'FALSE', 'True', 'False', 'T', 'F'].includes(raw)) {
      throw new StartupError(`invalid value of ${name}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    }
    const value = ['true', '1', 't', 'TRUE', 'True', 'T'].includes(raw);
    const spec = Object.hasOwn(GATES, name) ? GATES[name] : undefined;
    if (!spec) throw new StartupError(`unrecognized feature gate: ${name}`);
    if (spec.locked && value !== spec.default) throw new StartupError(`cannot set feature gate ${name} to ${value}, feature is locked to ${spec.default}`);
    if (spec.stage === 'Deprecated') warnings.push(`Setting deprecated feature gate ${name}=${value}. It will be removed in a future release.`);
    if (spec.stage === 'GA') warnings.push(`Setting GA feature gate ${name}=${value}. It will be removed in a future release.`);
    values.set(name, value);
  }
  return {
    enabled: (name) => values.get(name) ?? (Object.hasOwn(GATES, name) ? GATES[name]?.default : undefined) ?? false,
    warnings,
  };
}

type Handle = (req: ApiRequest) => Promise<ApiResponse>;

/** With APIListChunking off, lists ignore `limit` and `continue` (kube clears both options). */
export function applyFeatureGates(handle: Handle, gates: FeatureGates): Handle {
  if (gates.enabled('APIListChunking')) return handle;
  return (req) => {
    const q = req.url.indexOf('?');
    if (req.method !== 'GET' || q === -1) return handle(req);
    const query = new URLSearchParams(req.url.slice(q + 1));
    if (!query.has('limit') && !query.has('continue')) return handle(req);
    query.delete('limit');
    query.delete('continue');
    const rest = query.toString();
    return handle({ ...req, url: req.url.slice(0, q) + (rest ? `?${rest}` : '') });
  };
}
