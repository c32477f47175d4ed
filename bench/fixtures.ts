// Objects the benchmarks create, shared by the client side and the server process.

/** The list-walk ConfigMap number i (stored text about 500 bytes with system fields). */
export function walkConfigMap(i: number): string {
  return JSON.stringify({ metadata: { name: `cm-${String(i).padStart(5, '0')}`, labels: { app: 'bench', shard: String(i % 16) } }, data: { 'settings.json': '{"mode":"bench","retries":3}', index: String(i) } });
}
