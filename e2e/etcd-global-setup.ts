// `KP_E2E_STORAGE=etcd npx vitest run -c e2e/vitest.config.ts [files]`: the whole run's Node hosts
// keep their objects in one etcd member started here (Debian's etcd-server on loopback ports), each
// host under an --etcd-prefix of its own so that each starts empty, as the in-memory ones do.
// Without the variable nothing starts and the hosts stay in memory.
import { startEtcdCluster } from '../src/backends/etcd/testing-etcd';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.KP_E2E_STORAGE !== 'etcd') return undefined;
  const cluster = await startEtcdCluster(1);
  // Read by startCluster (harness.ts) in the test workers, which inherit this environment.
  const flags = `--etcd-servers ${cluster.servers.join(',')} --etcd-prefix /e2e-{unique}`;
  process.env.KP_SERVE_FLAGS = `${process.env.KP_SERVE_FLAGS ?? ''} ${flags}`.trim();
  return () => cluster.stop();
}
