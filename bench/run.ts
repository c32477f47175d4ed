// `npm run bench`: the CRUD benchmark against the transport floor, then etcd (when installed)
// as a reference for write throughput. Prints tables and a summary; asserts nothing.
import { formatCrud, runCrudBench, type CrudResult } from './crud';
import { runEtcdBench, type EtcdResult } from './etcd';

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

  console.log('\nsummary');
  if (crud) {
    console.log(`  get    p50 ${(crud.getP50 / crud.getFloorP50).toFixed(2)}x floor (target <= 1.3x)`);
    console.log(`  create p50 ${(crud.createP50 / crud.createFloorP50).toFixed(2)}x floor (target <= 2x)`);
    console.log(`  creates/s with 16 in flight: ${crud.createsPerSec16.toFixed(0)}`);
  } else console.log('  crud: failed (see above)');
  if (etcd?.available) {
    console.log(`  etcd puts/s with 16 in flight: ${etcd.putsPerSec16.toFixed(0)}${crud ? ` (ours/etcd = ${(crud.createsPerSec16 / etcd.putsPerSec16).toFixed(2)})` : ''}`);
  }
  if (!crud) process.exitCode = 1;
}

void main();
