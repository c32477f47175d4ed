import { describe, expect, it } from 'vitest';
import { FlagError, parseBridgeFlags } from './flags';

describe('bridge flags', () => {
  it('defaults to loopback, port 8090 and the playground\'s own origins', () => {
    expect(parseBridgeFlags([])).toMatchObject({ port: 8090, host: '127.0.0.1', kubeconfig: 'bridge.kubeconfig', allowedOrigins: ['http://127.0.0.1:8080', 'http://localhost:8080'] });
  });

  it('takes both spellings, repeated origins and durations', () => {
    const f = parseBridgeFlags(['--port=0', '--kubeconfig', 'k', '--allowed-origin', 'http://a:1', '--allowed-origin=https://b,http://c:2', '--request-timeout', '2m', '--max-in-flight', '5']);
    expect(f).toMatchObject({ port: 0, kubeconfig: 'k', allowedOrigins: ['http://a:1', 'https://b', 'http://c:2'], requestTimeoutMs: 120_000, maxInFlight: 5 });
  });

  it('says what is wrong', () => {
    expect(() => parseBridgeFlags(['--port', '70000'])).toThrow(new FlagError('invalid --port "70000": want 0-65535'));
    expect(() => parseBridgeFlags(['--allowed-origin', 'http://a/path'])).toThrow(FlagError);
    expect(() => parseBridgeFlags(['--nope', '1'])).toThrow(new FlagError('unknown flag: --nope'));
    expect(() => parseBridgeFlags(['--port'])).toThrow(new FlagError('flag needs an argument: --port'));
  });
});
