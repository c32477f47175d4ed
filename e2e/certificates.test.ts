// `kubectl certificate approve` / `deny` through certificatesigningrequests/<name>/approval, and a
// created CSR naming the user who created it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlOk, startCluster, type Cluster } from './harness';

// A P-256 request for CN=alice (openssl req -new).
const REQUEST = Buffer.from(`-----BEGIN CERTIFICATE REQUEST-----
MIHKMHICAQAwEDEOMAwGA1UEAwwFYWxpY2UwWTATBgcqhkjOPQIBBggqhkjOPQMB
BwNCAARepoGlDXkJgCqzTHK3jE3EQieJRGeXR9MaqN96eh41nqWFivCTHJcEKKq5
Ns3tqkeNOVjhLRcLuvJc1JNR7R5SoAAwCgYIKoZIzj0EAwIDSAAwRQIhAJXusui2
wHf7oqEdgLC+N7ETDK2EYZaPLn4YZRAb9qo1AiBZHwlYJCTN+5JLUjDZCLd5Ys8r
Sq4MowHS8UmAa/fJjA==
-----END CERTIFICATE REQUEST-----
`).toString('base64');

const csr = (name: string) => `apiVersion: certificates.k8s.io/v1
kind: CertificateSigningRequest
metadata:
  name: ${name}
spec:
  request: ${REQUEST}
  signerName: example.com/signer
  usages: [client auth]
`;

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
}, 60_000);
afterAll(() => c?.stop());

describe('kubectl certificate', () => {
  it('approve and deny set the conditions; the CSR names its creator', async () => {
    await kubectlOk(c, ['create', '-f', '-'], csr('alice-1') + '---\n' + csr('alice-2'));
    const user = await kubectlOk(c, ['get', 'csr', 'alice-1', '-o', 'jsonpath={.spec.username} {.spec.groups}']);
    expect(user.stdout).toBe('kubernetes-admin ["system:masters","system:authenticated"]');

    const approve = await kubectlOk(c, ['certificate', 'approve', 'alice-1']);
    expect(approve.stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/alice-1 approved');
    const deny = await kubectlOk(c, ['certificate', 'deny', 'alice-2']);
    expect(deny.stdout.trim()).toBe('certificatesigningrequest.certificates.k8s.io/alice-2 denied');

    const approved = JSON.parse((await kubectlOk(c, ['get', 'csr', 'alice-1', '-o', 'json'])).stdout);
    expect(approved.status.conditions).toMatchObject([{ type: 'Approved', status: 'True', reason: 'KubectlApprove' }]);
    expect(approved.status.conditions[0].lastUpdateTime).toBeTruthy();
    const denied = JSON.parse((await kubectlOk(c, ['get', 'csr', 'alice-2', '-o', 'json'])).stdout);
    expect(denied.status.conditions).toMatchObject([{ type: 'Denied', status: 'True', reason: 'KubectlDeny' }]);
    const table = (await kubectlOk(c, ['get', 'csr'])).stdout.split('\n');
    expect(table[0].split(/\s+/)).toEqual(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    expect(table[1].split(/\s+/).filter((x, i) => i !== 1)).toEqual(['alice-1', 'example.com/signer', 'kubernetes-admin', '<none>', 'Approved']);
    expect(table[2].split(/\s+/).filter((x, i) => i !== 1)).toEqual(['alice-2', 'example.com/signer', 'kubernetes-admin', '<none>', 'Denied']);
  });
});
