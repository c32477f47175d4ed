import { describe, expect, it } from 'vitest';
import { FlagError, parseDuration, parseFlags } from './flags';

describe('parseFlags', () => {
  it('has the documented defaults', () => {
    expect(parseFlags([])).toEqual({ port: 8080, host: '127.0.0.1', kubeconfig: '.kubeconfig' });
  });

  it('reads every flag in both spellings', () => {
    expect(parseFlags(['--port', '0', '--host=0.0.0.0', '--kubeconfig', 'tmp/kc', '--history-window=1h30m'])).toEqual({
      port: 0,
      host: '0.0.0.0',
      kubeconfig: 'tmp/kc',
      historyWindowMs: 90 * 60_000,
    });
  });

  it('rejects bad input with a FlagError', () => {
    expect(() => parseFlags(['--port', 'abc'])).toThrow(FlagError);
    expect(() => parseFlags(['--port', '70000'])).toThrow('invalid --port "70000"');
    expect(() => parseFlags(['--nope', '1'])).toThrow('unknown flag: --nope');
    expect(() => parseFlags(['--port'])).toThrow('flag needs an argument: --port');
    expect(() => parseFlags(['serve'])).toThrow('unexpected argument "serve"');
    expect(() => parseFlags(['--history-window', '5'])).toThrow('invalid duration "5"');
  });
});

describe('parseDuration', () => {
  it('parses Go-style durations into milliseconds', () => {
    expect(parseDuration('5m')).toBe(300_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('1h2m3s')).toBe(3_723_000);
  });

  it('rejects text that is not a duration', () => {
    expect(() => parseDuration('')).toThrow(FlagError);
    expect(() => parseDuration('5x')).toThrow(FlagError);
    expect(() => parseDuration('m5')).toThrow(FlagError);
  });

  it('parses the access flags', () => {
    expect(parseFlags(['--authorization-mode=RBAC', '--token-auth-file', 'tokens.csv', '--anonymous-auth=true'])).toMatchObject({ authorizationMode: 'RBAC', tokenAuthFile: 'tokens.csv', anonymousAuth: true });
    expect(() => parseFlags(['--authorization-mode=ABAC'])).toThrow('--authorization-mode "ABAC": want AlwaysAllow or RBAC');
    expect(() => parseFlags(['--anonymous-auth=yes'])).toThrow(FlagError);
  });
});
