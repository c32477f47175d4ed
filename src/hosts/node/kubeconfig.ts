// The kubeconfig `npm run serve` writes so that `KUBECONFIG=<path> kubectl ...` just works.
// Over plain http no credentials (client-go would not send them); with --secure-port the CA and,
// when a token file gives one, an admin (system:masters) token.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Credentials for an HTTPS server: the CA to trust and the bearer token to send. */
export interface KubeconfigAuth {
  caCertPem?: string;
  token?: string;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Renders a single-cluster kubeconfig (YAML) pointing at `serverUrl`. */
export function renderKubeconfig(serverUrl: string, auth: KubeconfigAuth = {}): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: playground',
    '  cluster:',
    `    server: ${JSON.stringify(serverUrl)}`,
    ...(auth.caCertPem ? [`    certificate-authority-data: ${b64(auth.caCertPem)}`] : []),
    'contexts:',
    '- name: playground',
    '  context:',
    '    cluster: playground',
    '    user: playground',
    '    namespace: default',
    'current-context: playground',
    'users:',
    '- name: playground',
    auth.token ? `  user:\n    token: ${JSON.stringify(auth.token)}` : '  user: {}',
    'preferences: {}',
    '',
  ].join('\n');
}

export async function writeKubeconfig(path: string, serverUrl: string, auth: KubeconfigAuth = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // 0600 like kubectl's own kubeconfig files, which warn about group/world-readable configs.
  await writeFile(path, renderKubeconfig(serverUrl, auth), { mode: 0o600 });
}
