// component-base's metric stability rules for deprecated metrics: a metric deprecated in version
// X is still shown (described as deprecated) in X, hidden from X+1 on, and comes back for one
// more release only with `--show-hidden-metrics-for-version=<previous minor>`.
import { StartupError } from './runtime-config';
import { serverVersion } from './version';

const CURRENT = { major: Number(serverVersion.major), minor: Number(serverVersion.minor) };

/** The only value `--show-hidden-metrics-for-version` accepts: the previous minor version (`1.22`). */
export const SHOW_HIDDEN_METRICS_VERSION = `${CURRENT.major}.${CURRENT.minor - 1}`;

/** Empty means omitted; any other value than the previous minor fails start-up with kube's message. */
export function validateShowHiddenMetricsVersion(value: string | undefined): void {
  if (!value) return;
  if (value !== SHOW_HIDDEN_METRICS_VERSION) {
    throw new StartupError(`--show-hidden-metrics-for-version must be omitted or have the value '${SHOW_HIDDEN_METRICS_VERSION}'. Only the previous minor version is allowed`);
  }
}

/** Hidden when deprecated before the current minor (`1.22.0` < `1.23.0`); patch versions do not count. */
export function isHiddenDeprecation(deprecatedVersion: string): boolean {
  const [major, minor] = deprecatedVersion.split('.').map(Number);
  return major < CURRENT.major || (major === CURRENT.major && minor < CURRENT.minor);
}
