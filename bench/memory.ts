// Memory held by the memory backend for 100,000 ConfigMaps of ~500 bytes, against their JSON
// size (target <= 3x). Runs in a child `node --expose-gc` so the heap can be measured after a
// full GC. Prints numbers; asserts nothing.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApiServer } from '../src/core/api';

export interface MemoryResult {
  objects: number;
  jsonBytes: number;
  heapBytes: number;
  ratio: number;
}

const PATH = '/api/v1/namespaces/default/configmaps';

function configMap(i: number): string {
  // ~500 bytes stored once metadata (uid, timestamps, managedFields) is added.
  return JSON.stringify({
    metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { app: 'memory-bench', shard: String(i % 32) } },
    data: { 'config.yaml': `replicas: ${i % 7}\nmode: steady\nendpoint: http://svc-${i % 97}.default.svc:8080/path\n` },
  });
}

async function measureInChild(objects: number): Promise<MemoryResult> {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const enc = new TextEncoder();
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const api = await createApiServer();
  await settle();
  const before = process.memoryUsage().heapUsed;
  let jsonBytes = 0;
  for (let i = 0; i < objects; i += 500) {
    const batch: Promise<void>[] = [];
    for (let j = i; j < Math.min(objects, i + 500); j++) {
      batch.push(
        api.handle({ method: 'POST', url: PATH, headers: { 'content-type': 'application/json' }, body: enc.encode(configMap(j)) }).then((r) => {
          if (r.status !== 201) throw new Error(`create: HTTP ${r.status}`);
          // The stored text is the answer without the kind/apiVersion prefix.
          jsonBytes += (r.body as string).length - '"kind":"ConfigMap","apiVersion":"v1",'.length;
        }),
      );
    }
    await Promise.all(batch);
  }
  await settle();
  const heapBytes = process.memoryUsage().heapUsed - before;
  await api.close();
  return { objects, jsonBytes, heapBytes, ratio: heapBytes / jsonBytes };
}

export function runMemoryBench(objects = 100_000): Promise<MemoryResult> {
  return new Promise((resolve, reject) => {
    const self = fileURLToPath(import.meta.url);
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child', String(objects)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`memory child exited with ${code}: ${out}`));
      resolve(JSON.parse(line) as MemoryResult);
    });
  });
}

export function formatMemory(r: MemoryResult): string {
  return [
    `memory: ${r.objects} ConfigMaps, ${(r.jsonBytes / r.objects).toFixed(0)} bytes of JSON each, ${(r.jsonBytes / 1e6).toFixed(1)} MB in all`,
    `  heap held: ${(r.heapBytes / 1e6).toFixed(1)} MB = ${r.ratio.toFixed(2)}x the JSON (target <= 3x)`,
  ].join('\n');
}

const argv = process.argv;
if (argv.includes('--child')) {
  measureInChild(Number(argv[argv.indexOf('--child') + 1])).then((r) => console.log(JSON.stringify(r)));
} else if (import.meta.url === `file://${argv[1]}`) {
  runMemoryBench().then((r) => console.log(formatMemory(r)));
}
