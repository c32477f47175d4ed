import { describe, expect, it } from 'vitest';
import { FlagError, parseFlags } from './flags';

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
    expect(() => parseFlags(['--history-window', '5'])).toThrow('invalid argument "5" for "--history-window" flag: time: invalid duration "5"');
    expect(() => parseFlags(['--history-window', '0s'])).toThrow('invalid argument "0s" for "--history-window" flag: must be positive');
  });
});

describe('parseFlags access', () => {
  it('parses the access flags', () => {
    expect(parseFlags(['--authorization-mode=RBAC', '--token-auth-file', 'tokens.csv', '--anonymous-auth=true'])).toMatchObject({ authorizationMode: 'RBAC', tokenAuthFile: 'tokens.csv', anonymousAuth: true });
    expect(() => parseFlags(['--authorization-mode=ABAC'])).toThrow('--authorization-mode "ABAC": want AlwaysAllow or RBAC');
    expect(() => parseFlags(['--anonymous-auth=yes'])).toThrow(FlagError);
  });
});

describe('parseFlags controllers and client CA', () => {
  it('--controllers takes kube-controller-manager syntax, checked against the known names', () => {
    expect(parseFlags(['--controllers=*,-serviceaccount-token'])).toMatchObject({ controllers: '*,-serviceaccount-token' });
    expect(() => parseFlags(['--controllers', '*,-tokens'])).toThrow(new FlagError('"tokens" is not in the list of known controllers'));
  });

  it('--client-ca-file needs --secure-port', () => {
    expect(parseFlags(['--secure-port', '6443', '--client-ca-file', 'ca.crt'])).toMatchObject({ securePort: 6443, clientCaFile: 'ca.crt' });
    expect(() => parseFlags(['--client-ca-file', 'ca.crt'])).toThrow(new FlagError('--client-ca-file needs --secure-port'));
  });
});

describe('parseFlags storage', () => {
  it('parses --data-dir, --etcd-servers and --etcd-prefix', () => {
    expect(parseFlags(['--data-dir', 'state'])).toMatchObject({ dataDir: 'state' });
    expect(parseFlags(['--etcd-servers=http://127.0.0.1:2379, http://127.0.0.1:22379/', '--etcd-prefix', '/kp'])).toMatchObject({
      etcdServers: ['http://127.0.0.1:2379', 'http://127.0.0.1:22379/'],
      etcdPrefix: '/kp',
    });
    expect(() => parseFlags(['--etcd-servers', '127.0.0.1:2379'])).toThrow('--etcd-servers "127.0.0.1:2379": want a URL like http://127.0.0.1:2379');
    expect(() => parseFlags(['--etcd-servers', 'https://etcd:2379'])).toThrow('only http:// is supported');
    expect(() => parseFlags(['--etcd-servers', ','])).toThrow('--etcd-servers must not be empty');
    expect(() => parseFlags(['--etcd-prefix', 'registry'])).toThrow('--etcd-prefix "registry": must start with /');
  });
});

describe('simulated cluster flags', () => {
  it('reads --controllers, --nodes, --node-cpu, --node-memory, --kubelet-delay and --clock-speed', () => {
    expect(parseFlags(['--controllers', '*,-scheduler', '--nodes=5', '--node-cpu', '2000m', '--node-memory', '4Gi', '--kubelet-delay', '0s', '--clock-speed', '10'])).toMatchObject({
      controllers: '*,-scheduler',
      nodes: 5,
      nodeCpu: '2',
      nodeMemory: '4Gi',
      kubeletDelayMs: 0,
      clockSpeed: 10,
    });
  });
  it('refuses unknown controllers with kube-controller-manager’s wording, and bad numbers', () => {
    expect(() => parseFlags(['--controllers', '*,-nope'])).toThrow('"nope" is not in the list of known controllers');
    expect(() => parseFlags(['--nodes', '-1'])).toThrow(FlagError);
    expect(() => parseFlags(['--node-memory', 'lots'])).toThrow(FlagError);
    expect(() => parseFlags(['--kubelet-delay', '5'])).toThrow('time: invalid duration "5"');
    expect(() => parseFlags(['--clock-speed', '0'])).toThrow(FlagError);
  });
  it('reads --job-run-time and --terminated-pod-gc-threshold', () => {
    expect(parseFlags(['--job-run-time', '2.5s', '--terminated-pod-gc-threshold=0'])).toMatchObject({ jobRunMs: 2500, terminatedPodGCThreshold: 0 });
    expect(() => parseFlags(['--job-run-time', '2'])).toThrow('time: invalid duration "2"');
    expect(() => parseFlags(['--terminated-pod-gc-threshold', 'x'])).toThrow('strconv.ParseInt: parsing "x": invalid syntax');
  });
});
