// Command-line flags of `npm run bridge`. Pure parsing, so it is unit-testable.
import { DEFAULT_BRIDGE_PORT } from '../../bridge/protocol';
import { DEFAULT_LIMITS } from './bridge';
import { DEFAULT_ALLOWED_ORIGINS } from './server';

export interface BridgeFlags {
  port: number;
  /** Loopback only by default: the bridge hands out the tab's whole cluster. */
  host: string;
  /** Where to write the kubeconfig once a tab pairs. */
  kubeconfig: string;
  /** Keeps the bridge's CA and serving certificate, so kubeconfigs stay valid across restarts. */
  dataDir: string;
  allowedOrigins: string[];
  maxInFlight: number;
  maxWatches: number;
  requestTimeoutMs: number;
}

export class FlagError extends Error {}

export const USAGE = 'usage: bridge [--port 8090] [--host 127.0.0.1] [--kubeconfig bridge.kubeconfig] [--data-dir .kube-playground/bridge] [--allowed-origin http://127.0.0.1:8080,http://localhost:8080] [--max-in-flight 64] [--max-watches 256] [--request-timeout 60s]';

function count(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max) throw new FlagError(`invalid --${name} "${text}": want ${min}-${max}`);
  return n;
}

function seconds(name: string, text: string): number {
  const m = /^(\d+)(s|m)?$/.exec(text);
  if (!m) throw new FlagError(`invalid --${name} "${text}": want seconds such as 60s or 2m (0 for none)`);
  return Number(m[1]) * (m[2] === 'm' ? 60_000 : 1000);
}

function origins(text: string): string[] {
  const list = text.split(',').map((o) => o.trim()).filter(Boolean);
  for (const origin of list) {
    // An Origin header is scheme://host[:port] with nothing after it.
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new FlagError(`invalid --allowed-origin "${origin}": want scheme://host[:port], e.g. http://127.0.0.1:8080`);
  }
  if (list.length === 0) throw new FlagError('--allowed-origin needs at least one origin');
  return list;
}

/** Accepts `--flag value` and `--flag=value`; --allowed-origin may repeat. */
export function parseBridgeFlags(argv: readonly string[]): BridgeFlags {
  const flags: BridgeFlags = {
    port: DEFAULT_BRIDGE_PORT,
    host: '127.0.0.1',
    kubeconfig: 'bridge.kubeconfig',
    dataDir: '.kube-playground/bridge',
    allowedOrigins: [...DEFAULT_ALLOWED_ORIGINS],
    maxInFlight: DEFAULT_LIMITS.maxInFlight,
    maxWatches: DEFAULT_LIMITS.maxWatches,
    requestTimeoutMs: DEFAULT_LIMITS.requestTimeoutMs,
  };
  let originsGiven = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new FlagError(`flag needs an argument: --${name}`);
    switch (name) {
      case 'port':
        flags.port = count(name, value, 0, 65535);
        break;
      case 'host':
        flags.host = value;
        break;
      case 'kubeconfig':
        flags.kubeconfig = value;
        break;
      case 'data-dir':
        flags.dataDir = value;
        break;
      case 'allowed-origin':
        flags.allowedOrigins = [...(originsGiven ? flags.allowedOrigins : []), ...origins(value)];
        originsGiven = true;
        break;
      case 'max-in-flight':
        flags.maxInFlight = count(name, value, 1, 100_000);
        break;
      case 'max-watches':
        flags.maxWatches = count(name, value, 1, 100_000);
        break;
      case 'request-timeout':
        flags.requestTimeoutMs = seconds(name, value);
        break;
      default:
        throw new FlagError(`unknown flag: --${name}`);
    }
  }
  return flags;
}
