// Command-line flags of `npm run serve`. Pure parsing, no side effects, so it is unit-testable.

export interface HostFlags {
  port: number;
  host: string;
  /** Where to write the kubeconfig (relative paths are resolved by the caller against the cwd). */
  kubeconfig: string;
  /** Undefined means "the core's default". */
  historyWindowMs?: number;
}

export class FlagError extends Error {}

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses a Go-style duration (`5m`, `1h30m`, `90s`, `1.5h`, `250ms`) into milliseconds. */
export function parseDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  if (!text) throw new FlagError('invalid duration ""');
  while (pos < text.length) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) throw new FlagError(`invalid duration "${text}"`);
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
  }
  return total;
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
      case 'history-window':
        flags.historyWindowMs = parseDuration(value);
        if (flags.historyWindowMs <= 0) throw new FlagError('--history-window must be positive');
        break;
      default:
        throw new FlagError(`unknown flag: --${name}`);
    }
  }
  return flags;
}
