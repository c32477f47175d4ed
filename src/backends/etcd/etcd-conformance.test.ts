// The storage conformance suite against the etcd store, on an etcd member started here (Debian's
// etcd-server on loopback ports). Every store the suite opens gets an --etcd-prefix of its own, so
// the tests share the member but not their keys; tests run one after another, so the revisions a
// test sees are contiguous from the one its store opened at. The parts of the suite that hold or
// fail the in-process store's commits are not registered here (see conformance.ts).
import { afterAll, beforeAll } from 'vitest';
import { runStoreConformanceOn, WINDOW_MS } from '../../core/storage/testing/conformance';
import { openEtcdStore } from './etcd-store';
import { startEtcdCluster } from './testing-etcd';

let cluster: Awaited<ReturnType<typeof startEtcdCluster>> | undefined;
let prefixes = 0;

beforeAll(async () => {
  cluster = await startEtcdCluster(1);
}, 30_000);

afterAll(async () => {
  await cluster?.stop();
});

runStoreConformanceOn('etcd', {
  inProcess: false,
  async open(clock) {
    const store = await openEtcdStore({
      servers: cluster!.servers,
      prefix: `/conformance-${++prefixes}`,
      historyWindowMs: WINDOW_MS,
      now: clock.now,
      compactionIntervalMs: 0,
    });
    return { store };
  },
});
