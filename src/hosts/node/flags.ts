// Command-line flags of `npm run serve`. Pure parsing, no side effects, so it is unit-testable.
import { builtinResources } from '../../core/schema';
import { invalidFlagArgument, parseRuntimeConfig, StartupError } from '../../core/server/runtime-config';
import { parseFeatureGates } from '../../core/server/runtime-config-gates';
import { validateShowHiddenMetricsVersion } from '../../core/server/metrics-hidden';
import { parseHistoryWindow } from '../../core/server/history-window';
import { parseControllers } from '../../core/controllers/controllers-flag';
import { parseDuration } from '../../core/codec/protobuf/time';
import { canonicalQuantity, parseQuantity } from '../../core/validation/quantity';

export interface HostFlags {
  port: number;
  host: string;
  /** Where to write the kubeconfig (relative paths are resolved by the caller against the cwd). */
  kubeconfig: string;
  /** Undefined means "the core's default". */
  historyWindowMs?: number;
  /** `--authorization-mode`: AlwaysAllow (default) or RBAC. */
  authorizationMode?: 'AlwaysAllow' | 'RBAC';
  /** `--token-auth-file`: static bearer tokens (token,user,uid,"groups"); turns authentication on. */
  tokenAuthFile?: string;
  /** `--anonymous-auth`: credential-less requests become system:anonymous (only with authentication on). */
  anonymousAuth?: boolean;
  /** `--secure-port`: serve HTTPS on this port (instead of HTTP on --port), with certificates from the data dir. */
  securePort?: number;
  /**
   * `--data-dir`: where the CA and serving certificate are kept (default `.kube-playground`). Given
   * explicitly, it also keeps the cluster's objects (LMDB in `<dir>/storage`); otherwise they live in memory.
   */
  dataDir?: string;
  /** `--etcd-servers`: etcd client URLs; objects live in etcd (overrides --data-dir's storage). */
  etcdServers?: string[];
  /** `--etcd-prefix`: the root of every key in etcd. Default `/registry`. */
  etcdPrefix?: string;
  /** `--runtime-config`: group/versions switched on or off (`batch/v1beta1=false`), validated here. */
  runtimeConfig?: string;
  /** `--feature-gates` (`APIListChunking=false`), validated here. */
  featureGates?: string;
  /** `--show-hidden-metrics-for-version`: the previous minor (`1.22`) brings back metrics hidden in this one. */
  showHiddenMetricsForVersion?: string;
  /** `--audit-log-path`: audit events as JSON lines to this file, `-` for stdout. */
  auditLogPath?: string;
  /** `--client-ca-file`: PEM CA bundle whose client certificates are trusted too (needs --secure-port). */
  clientCaFile?: string;
  /**
   * `--controllers` (kube-controller-manager's syntax, validated here): the in-process
   * controllers and the simulated cluster; absent means `*`, everything on.
   */
  controllers?: string;
  /** `--nodes`, `--node-cpu`, `--node-memory`: the simulated nodes. */
  nodes?: number;
  nodeCpu?: string;
  nodeMemory?: string;
  /** `--kubelet-delay` (Go duration): from a pod's binding to its containers running. */
  kubeletDelayMs?: number;
  /** `--clock-speed`: cluster time runs this many times faster than wall time. */
  clockSpeed?: number;
  /** `--job-run-time` (Go duration): how long a run-to-completion pod's containers run. */
  jobRunMs?: number;
  /** `--terminated-pod-gc-threshold` (kube-controller-manager's): podgc keeps at most this many terminated pods. */
  terminatedPodGCThreshold?: number;
}

export class FlagError extends Error {}

/** Validates an API flag with the core's parser; the error reads like kube-apiserver's (pflag) one. */
function checkedApiFlag(name: string, value: string, parse: () => unknown): string {
  try {
    parse();
  } catch (err) {
    if (!(err instanceof StartupError)) throw err;
    throw new FlagError(invalidFlagArgument(name, value, err));
  }
  return value;
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new FlagError(`invalid --port "${text}": want 0-65535`);
  return n;
}

/** Accepts `--flag value` and `--flag=value`. */
export function parseFlags(argv: readonly string[]): HostFlags {
  const flags: HostFlags = { port: 8080, host: '127.0.0.1', kubeconfig: '.kubeconfig' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      if (i + 1 >= argv.length) throw new FlagError(`flag needs an argument: --${name}`);
      value = argv[++i];
    }
    switch (name) {
      case 'port':
        flags.port = parsePort(value);
        break;
      case 'host':
        if (!value) throw new FlagError('--host must not be empty');
        flags.host = value;
        break;
      case 'kubeconfig':
        if (!value) throw new FlagError('--kubeconfig must not be empty');
        flags.kubeconfig = value;
        break;
      case 'authorization-mode':
        if (value !== 'AlwaysAllow' && value !== 'RBAC') throw new FlagError(`--authorization-mode "${value}": want AlwaysAllow or RBAC`);
        flags.authorizationMode = value;
        break;
      case 'token-auth-file':
        if (!value) throw new FlagError('--token-auth-file must not be empty');
        flags.tokenAuthFile = value;
        break;
      case 'secure-port':
        flags.securePort = parsePort(value);
        break;
      case 'data-dir':
        if (!value) throw new FlagError('--data-dir must not be empty');
        flags.dataDir = value;
        break;
      case 'etcd-servers': {
        const servers = value.split(',').map((url) => url.trim()).filter(Boolean);
        for (const url of servers) {
          if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new FlagError(`--etcd-servers "${url}": want a URL like http://127.0.0.1:2379`);
          if (url.startsWith('https:')) throw new FlagError(`--etcd-servers "${url}": only http:// is supported (no --etcd-cafile etc.)`);
        }
        if (servers.length === 0) throw new FlagError('--etcd-servers must not be empty');
        flags.etcdServers = servers;
        break;
      }
      case 'etcd-prefix':
        if (!value.startsWith('/')) throw new FlagError(`--etcd-prefix "${value}": must start with /`);
        flags.etcdPrefix = value;
        break;
      case 'anonymous-auth':
        if (value !== 'true' && value !== 'false') throw new FlagError(`--anonymous-auth "${value}": want true or false`);
        flags.anonymousAuth = value === 'true';
        break;
      case 'runtime-config':
        flags.runtimeConfig = checkedApiFlag(name, value, () => parseRuntimeConfig(value, builtinResources));
        break;
      case 'feature-gates':
        flags.featureGates = checkedApiFlag(name, value, () => parseFeatureGates(value));
        break;
      case 'show-hidden-metrics-for-version':
        // kube checks this in options validation, after flag parsing: its message comes unwrapped.
        try {
          validateShowHiddenMetricsVersion(value);
        } catch (err) {
          if (!(err instanceof StartupError)) throw err;
          throw new FlagError(err.message);
        }
        flags.showHiddenMetricsForVersion = value;
        break;
      case 'audit-log-path':
        if (!value) throw new FlagError('--audit-log-path must not be empty');
        flags.auditLogPath = value;
        break;
      case 'client-ca-file':
        if (!value) throw new FlagError('--client-ca-file must not be empty');
        flags.clientCaFile = value;
        break;
      case 'controllers':
        // kube-controller-manager checks the names in options validation: its message comes unwrapped.
        try {
          parseControllers(value);
        } catch (err) {
          if (!(err instanceof StartupError)) throw err;
          throw new FlagError(err.message);
        }
        flags.controllers = value;
        break;
      case 'history-window':
        checkedApiFlag(name, value, () => (flags.historyWindowMs = parseHistoryWindow(value)));
        break;
      default:
        if (!parseClusterFlag(flags, name, value)) throw new FlagError(`unknown flag: --${name}`);
    }
  }
  // Client certificates are only presented over TLS.
  if (flags.clientCaFile !== undefined && flags.securePort === undefined) throw new FlagError('--client-ca-file needs --secure-port');
  return flags;
}

/** The simulated cluster's flags (--controllers and the node and clock settings); false for any other flag. */
export function parseClusterFlag(flags: HostFlags, name: string, value: string): boolean {
  switch (name) {
    case 'nodes':
      if (!/^\d+$/.test(value) || Number(value) > 1000) throw new FlagError(`--nodes "${value}": want a whole number 0-1000`);
      flags.nodes = Number(value);
      return true;
    case 'node-cpu':
    case 'node-memory':
      if (!parseQuantity(value) || value.startsWith('-')) throw new FlagError(`--${name} "${value}": want a quantity such as ${name === 'node-cpu' ? '4 or 3500m' : '8Gi'}`);
      if (name === 'node-cpu') flags.nodeCpu = canonicalQuantity(value);
      else flags.nodeMemory = canonicalQuantity(value);
      return true;
    case 'kubelet-delay':
      try {
        flags.kubeletDelayMs = parseDuration(value) / 1e6;
      } catch {
        throw new FlagError(`invalid argument "${value}" for "--kubelet-delay" flag: time: invalid duration ${JSON.stringify(value)}`);
      }
      if (!(flags.kubeletDelayMs >= 0)) throw new FlagError(`--kubelet-delay "${value}": must not be negative`);
      return true;
    case 'job-run-time':
      try {
        flags.jobRunMs = parseDuration(value) / 1e6;
      } catch {
        throw new FlagError(`invalid argument "${value}" for "--job-run-time" flag: time: invalid duration ${JSON.stringify(value)}`);
      }
      if (!(flags.jobRunMs >= 0)) throw new FlagError(`--job-run-time "${value}": must not be negative`);
      return true;
    case 'terminated-pod-gc-threshold':
      if (!/^-?\d+$/.test(value)) throw new FlagError(`invalid argument "${value}" for "--terminated-pod-gc-threshold" flag: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
      flags.terminatedPodGCThreshold = Number(value);
      return true;
    case 'clock-speed': {
      const speed = Number(value);
      if (!(speed > 0) || !Number.isFinite(speed)) throw new FlagError(`--clock-speed "${value}": want a positive number`);
      flags.clockSpeed = speed;
      return true;
    }
    default:
      return false;
  }
}
