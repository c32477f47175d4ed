// The kubeconfig `npm run serve` writes so that `KUBECONFIG=<path> kubectl ...` just works.
// Over plain http no credentials (client-go would not send them); with --secure-port the CA, the
// admin's client certificate and, when a token file gives one, an admin (system:masters) token.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Credentials for an HTTPS server: the CA to trust, the bearer token and client certificate to send. */
export interface KubeconfigAuth {
  caCertPem?: string;
  token?: string;
  clientCert?: { cert: string; key: string };
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
    ...userLines(auth),
    'preferences: {}',
    '',
  ].join('\n');
}

function userLines(auth: KubeconfigAuth): string[] {
  const lines: string[] = [];
  if (auth.clientCert) lines.push(`    client-certificate-data: ${b64(auth.clientCert.cert)}`, `    client-key-data: ${b64(auth.clientCert.key)}`);
  if (auth.token) lines.push(`    token: ${JSON.stringify(auth.token)}`);
  return lines.length ? ['  user:', ...lines] : ['  user: {}'];
}

export async function writeKubeconfig(path: string, serverUrl: string, auth: KubeconfigAuth = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  // 0600 like kubectl's own kubeconfig files, which warn about group/world-readable configs.
  await writeFile(path, renderKubeconfig(serverUrl, auth), { mode: 0o600 });
}
