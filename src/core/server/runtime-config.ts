// kube-apiserver's --runtime-config: which built-in group/versions (or single resources) are
// served. `batch/v1beta1=false,api/all=true`, a value defaulting to true; `api/all` switches
// every group/version, `api/v1` (or `api/legacy`) names the core group. Parsed at start-up: an
// invalid entry fails it, as on a real server.
import type { ResourceInfo } from '../schema/resource-info';

import { StartupError } from '../meta/startup-error';

export { StartupError };

/**
 * A flag value its parser refused, worded as kube-apiserver's flag library (pflag) words it: both
 * hosts say it the same way, `npm run serve` at start-up and the browser host's settings.
 */
export function invalidFlagArgument(flag: string, value: string, err: StartupError): string {
  return `invalid argument ${JSON.stringify(value)} for "--${flag}" flag: ${err.message}`;
}

export interface RuntimeConfig {
  /** Whether a built-in resource is served under this configuration. */
  enabled(info: ResourceInfo): boolean;
}

function parseBool(key: string, value: string): boolean {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  throw new StartupError(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/** The core group is spelled `v1` internally; the flag says `api/v1` or `api/legacy`. */
function normalizeKey(key: string): string {
  if (key === 'api/legacy' || key === 'api/v1') return 'v1';
  return key;
}

const gvOf = (info: { group: string; version: string }) => (info.group ? `${info.group}/${info.version}` : info.version);

/** Parses the flag text against the built-ins this server knows; unknown group/versions are an error. */
export function parseRuntimeConfig(text: string | undefined, builtins: readonly ResourceInfo[]): RuntimeConfig {
  const settings = new Map<string, boolean>();
  let all: boolean | undefined;
  const knownGV = new Set(builtins.map(gvOf));
  const knownResource = new Set(builtins.map((i) => `${gvOf(i)}/${i.resource}`));
  const unknown: string[] = [];
  for (const entry of (text ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = entry.indexOf('=');
    const rawKey = eq === -1 ? entry : entry.slice(0, eq);
    const value = eq === -1 ? true : parseBool(rawKey, entry.slice(eq + 1));
    if (rawKey === 'api/all') {
      all = value;
      continue;
    }
    const key = normalizeKey(rawKey);
    if (!knownGV.has(key) && !knownResource.has(key)) {
      unknown.push(rawKey);
      continue;
    }
    settings.set(key, value);
  }
  if (unknown.length) throw new StartupError(`unknown api groups ${unknown.join(',')}`);
  return {
    enabled(info) {
      if (info.custom) return true;
      const gv = gvOf(info);
      return settings.get(`${gv}/${info.resource}`) ?? settings.get(gv) ?? all ?? true;
    },
  };
}
