// `npm run bench`: the CRUD benchmark against the transport floor, then etcd (when installed)
// as a reference for write throughput. Prints tables and a summary; asserts nothing.
import { formatCrud, runCrudBench, type CrudResult } from './crud';
import { runEtcdBench, type EtcdResult } from './etcd';
import { formatListWalk, runListWalkBench, type ListWalkResult } from './list-walk';
import { formatFanout, runFanoutBench, type FanoutResult } from './watch-fanout';
import { formatMemory, runMemoryBench, type MemoryResult } from './memory';
import { formatApply, runApplyBench, type ApplyResult } from './apply';
import { DURABLE_TARGET, formatDurable, runDurableBench, type DurableResult } from './durable';
import { ETCD_CREATE_TARGET, ETCD_GET_TARGET, formatEtcdHost, runEtcdHostBench, type EtcdHostResult } from './etcd-host';
import { CONVERSION_TARGET, formatConversion, runConversionBench, type ConversionResult } from './conversion';
import { formatClusterIdle, formatRollout, runClusterIdleBench, runRolloutBench, IDLE_TARGET, ROLLOUT_TARGET, type ClusterIdleResult, type RolloutResult } from './cluster';
import { CLUSTER_MEMORY_TARGET, formatClusterMemory, runClusterMemoryBench, type ClusterMemoryResult } from './cluster-memory';

async function main(): Promise<void> {
  console.log(`kube-playground bench (Node ${process.version}, ${process.platform}/${process.arch})\n`);

  let crud: CrudResult | undefined;
  try {
    crud = await runCrudBench();
    console.log(formatCrud(crud));
  } catch (err) {
    console.log(`crud: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let etcd: EtcdResult | undefined;
  try {
    etcd = await runEtcdBench();
    if (etcd.available) console.log(`etcd ${etcd.version}: ${etcd.putsPerSecSequential.toFixed(0)} puts/s sequential, ${etcd.putsPerSec16.toFixed(0)} puts/s with 16 in flight (one etcd3 client)`);
    else console.log(`etcd: skipped (${etcd.reason})`);
  } catch (err) {
    console.log(`etcd: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let etcdHost: EtcdHostResult | undefined;
  if (etcd?.available) {
    try {
      etcdHost = await runEtcdHostBench();
      console.log(formatEtcdHost(etcdHost));
    } catch (err) {
      console.log(`--etcd-servers: FAILED: ${(err as Error).message}`);
    }
  }

  console.log('');
  let durable: DurableResult | undefined;
  try {
    durable = await runDurableBench();
    console.log(formatDurable(durable));
  } catch (err) {
    console.log(`--data-dir: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let walk: ListWalkResult | undefined;
  try {
    walk = await runListWalkBench();
    console.log(formatListWalk(walk));
  } catch (err) {
    console.log(`list walk: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let fanout: FanoutResult | undefined;
  try {
    fanout = await runFanoutBench();
    console.log(formatFanout(fanout));
  } catch (err) {
    console.log(`watch fan-out: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let memory: MemoryResult | undefined;
  try {
    memory = await runMemoryBench();
    console.log(formatMemory(memory));
  } catch (err) {
    console.log(`memory: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let apply: ApplyResult | undefined;
  try {
    apply = await runApplyBench();
    console.log(formatApply(apply));
  } catch (err) {
    console.log(`apply: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let conversion: ConversionResult | undefined;
  try {
    conversion = await runConversionBench();
    console.log(formatConversion(conversion));
  } catch (err) {
    console.log(`conversion: FAILED: ${(err as Error).message}`);
  }

  console.log('');
  let idle: ClusterIdleResult | undefined;
  let rollout: RolloutResult | undefined;
  let clusterMemory: ClusterMemoryResult | undefined;
  try {
    idle = await runClusterIdleBench();
    console.log(formatClusterIdle(idle));
    rollout = await runRolloutBench();
    console.log(formatRollout(rollout));
    clusterMemory = await runClusterMemoryBench();
    console.log(formatClusterMemory(clusterMemory));
  } catch (err) {
    console.log(`cluster: FAILED: ${(err as Error).message}`);
  }

  console.log('\nsummary');
  if (crud) {
    console.log(`  get    p50 ${(crud.getP50 / crud.getFloorP50).toFixed(2)}x floor (target <= 1.3x)`);
    console.log(`  create p50 ${(crud.createP50 / crud.createFloorP50).toFixed(2)}x floor (target <= 2x)`);
    console.log(`  creates/s with 16 in flight: ${crud.createsPerSec16.toFixed(0)}`);
  } else console.log('  crud: failed (see above)');
  if (etcd?.available) {
    console.log(`  etcd puts/s with 16 in flight: ${etcd.putsPerSec16.toFixed(0)}${crud ? ` (ours/etcd = ${(crud.createsPerSec16 / etcd.putsPerSec16).toFixed(2)})` : ''}`);
  }
  if (etcdHost) {
    console.log(`  --etcd-servers creates/s ${(etcdHost.createsPerSec16 / etcdHost.relayPerSec16).toFixed(2)}x the relay floor (target >= ${ETCD_CREATE_TARGET}x), GET p50 ${(etcdHost.getP50 / etcdHost.relayGetP50).toFixed(2)}x (target <= ${ETCD_GET_TARGET}x); against raw etcd calls ${(etcdHost.createsPerSec16 / etcdHost.rawPutsPerSec16).toFixed(2)}x, ${(etcdHost.getP50 / etcdHost.rawRangeP50).toFixed(2)}x`);
  }
  if (durable) console.log(`  --data-dir create p50 ${(durable.createP50 / durable.relayP50).toFixed(2)}x the relay floor (target <= ${DURABLE_TARGET}x); ${(durable.createP50 / durable.rawPutP50).toFixed(2)}x a raw durable LMDB put, ${(durable.createP50 / (durable.floorP50 + durable.rawPutP50)).toFixed(2)}x T + P`);
  if (walk) console.log(`  list walk 10k/limit=500: ${walk.walkMs.toFixed(0)} ms, ${(walk.walkMs / walk.joinMs).toFixed(2)}x join (targets <= 500 ms, <= 1.5x)`);
  if (fanout) console.log(`  watch fan-out: ${fanout.perWatcherEventUs.toFixed(2)} µs per watcher per event (target <= 20 µs), in order: ${fanout.allInOrder ? 'yes' : 'NO'}`);
  if (memory) console.log(`  memory: ${memory.ratio.toFixed(2)}x JSON size (target <= 3x)`);
  if (apply) {
    console.log(`  apply-create: ${(apply.applyCreateP50 / apply.createP50).toFixed(2)}x create (target <= 1.3x); no-op re-apply: ${(apply.noopApplyP50 / apply.getP50).toFixed(2)}x get (target <= 1.3x), wrote nothing: ${apply.noWrite ? 'yes' : 'NO'}`);
  }
  if (conversion) {
    const parts = conversion.cases.map((c) => `${c.name} ${(c.convertedP50 / c.storageP50).toFixed(2)}x`);
    console.log(`  conversion, get at another version vs storage version (target <= ${CONVERSION_TARGET.toFixed(2)}x): ${parts.join('; ')}`);
  }
  if (idle) console.log(`  idle controllers: GET ${(idle.getP50 / idle.getIdleP50).toFixed(2)}x, create ${(idle.createP50 / idle.createIdleP50).toFixed(2)}x none (target <= ${IDLE_TARGET}x)`);
  if (rollout) console.log(`  1,000-replica rollout: ${(rollout.controllersMs / rollout.floorMs).toFixed(2)}x the same writes by a bare loop (target <= ${ROLLOUT_TARGET}x)`);
  if (clusterMemory) console.log(`  10,000 pods: ${(clusterMemory.withControllersBytes / clusterMemory.storedOnlyBytes).toFixed(2)}x the stored objects' memory (target <= ${CLUSTER_MEMORY_TARGET}x)`);
  if (!crud || !durable || !walk || !fanout || !memory || !apply || !conversion) process.exitCode = 1;
}

void main();
