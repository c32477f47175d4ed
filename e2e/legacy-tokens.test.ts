// The v1.23 tokens controller end to end with the real kubectl over HTTPS: every ServiceAccount
// gets a `<name>-token-xxxxx` Secret (SECRETS 1), its token authenticates as the account, and a
// deleted token Secret stops authenticating and is replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './harness';
import { startSecureServer, type SecureServer } from './secure-server';

let secure: SecureServer;
const kubectl = (args: string[], stdin?: string) => secure.kubectl(args, stdin);

beforeAll(async () => {
  secure = await startSecureServer('admin-token,admin,1,"system:masters"\n');
}, 60_000);

afterAll(async () => {
  await secure?.stop();
});

/** The name of the token Secret the account lists, once it lists one. */
async function tokenSecretOf(sa: string): Promise<string> {
  return eventually(async () => {
    const r = await kubectl(['get', 'serviceaccount', sa, '-o', 'jsonpath={.secrets[0].name}']);
    if (r.code !== 0 || !r.stdout) throw new Error(`no token secret yet: ${r.stderr}`);
    return r.stdout;
  });
}

describe('legacy service-account token Secrets with kubectl', () => {
  it('kubectl get sa shows one secret and kubectl get secrets lists default-token-xxxxx', async () => {
    const name = await tokenSecretOf('default');
    expect(name).toMatch(/^default-token-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    const sa = await kubectl(['get', 'sa']);
    expect(sa.code).toBe(0);
    expect(sa.stdout).toMatch(/^NAME\s+SECRETS\s+AGE\n/);
    expect(sa.stdout).toMatch(/^default\s+1\s+\S+$/m);
    const secrets = await kubectl(['get', 'secrets']);
    expect(secrets.code).toBe(0);
    expect(secrets.stdout).toMatch(new RegExp(`^${name}\\s+kubernetes\\.io/service-account-token\\s+[23]\\s+\\S+$`, 'm'));
  });

  it('a token Secret’s token authenticates as the service account until the Secret is deleted', async () => {
    expect((await kubectl(['create', 'serviceaccount', 'robot'])).code).toBe(0);
    const secret = await tokenSecretOf('robot');
    const encoded = await kubectl(['get', 'secret', secret, '-o', 'jsonpath={.data.token}']);
    expect(encoded.code).toBe(0);
    const token = Buffer.from(encoded.stdout, 'base64').toString('utf8');

    // Authenticated (RBAC then denies the account, naming it).
    const denied = await kubectl(['--token', token, 'get', 'configmaps']);
    expect(denied.code).not.toBe(0);
    expect(denied.stderr.trim()).toBe('Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:default:robot" cannot list resource "configmaps" in API group "" in the namespace "default"');

    expect((await kubectl(['delete', 'secret', secret])).code).toBe(0);
    const gone = await kubectl(['--token', token, 'get', 'configmaps']);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain('error: You must be logged in to the server (Unauthorized)');

    // The controller gives the account a new token Secret.
    const replaced = await eventually(async () => {
      const r = await tokenSecretOf('robot');
      if (r === secret) throw new Error('not replaced yet');
      return r;
    });
    expect(replaced).toMatch(/^robot-token-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });
});
