// The kubeconfig `npm run serve` writes so that `KUBECONFIG=<path> kubectl ...` just works.
// No credentials: over plain http client-go would not send them anyway.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Renders a single-cluster kubeconfig (YAML) pointing at `serverUrl`. */
export function renderKubeconfig(serverUrl: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: playground',
    '  cluster:',
    `    server: ${JSON.stringify(serverUrl)}`,
    'contexts:',
    '- name: playground',
    '  context:',
    '    cluster: playground',
    '    user: playground',
    '    namespace: default',
    'current-context: playground',
    'users:',
    '- name: playground',
    '  user: {}',
    'preferences: {}',
    '',
  ].join('\n');
}

export async function writeKubeconfig(path: string, serverUrl: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // 0600 like kubectl's own kubeconfig files, which warn about group/world-readable configs.
  await writeFile(path, renderKubeconfig(serverUrl), { mode: 0o600 });
}
