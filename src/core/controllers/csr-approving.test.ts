import { afterEach, describe, expect, it } from 'vitest';
import { kubeletClientProblem, parseCsr } from './csr-request';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { KUBELET_CLIENT_CSR } from '../testing/csr-fixtures';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// -subj "/O=devs/CN=bob" -addext "subjectAltName=DNS:bob.example.com,IP:10.1.2.3"
const BOB = `-----BEGIN CERTIFICATE REQUEST-----
MIIBDDCBsgIBADAdMQ0wCwYDVQQKDARkZXZzMQwwCgYDVQQDDANib2IwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAATet14bVJxPq1OXJUlbuAeEB+FAy1/huWWRvX45
Z+BfqChaib9O8332hofMIdZnTVLke6EjWYy8ytu+aKe/FSh+oDMwMQYJKoZIhvcN
AQkOMSQwIjAgBgNVHREEGTAXgg9ib2IuZXhhbXBsZS5jb22HBAoBAgMwCgYIKoZI
zj0EAwIDSQAwRgIhAK6fvBLi6fK/NxAYC/j8JbVHLae2afJTHpAHAKIKLBouAiEA
n9dA0JpM3rgq5FzC8+n9wAcS7Dl9ereGQJTBit4Dl6Q=
-----END CERTIFICATE REQUEST-----
`;

const b64 = (pem: string) => Buffer.from(pem).toString('base64');
const csr = (name: string, pem: string, signerName: string, usages = ['digital signature', 'client auth']) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: b64(pem), signerName, usages },
});
const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

describe('CSR parsing', () => {
  it('reads subject, organizations and subject alternative names as Go does', () => {
    const node = parseCsr(b64(KUBELET_CLIENT_CSR));
    expect(node).toMatchObject({ commonName: 'system:node:node-1', organizations: ['system:nodes'], dnsNames: [], ipAddresses: [], publicKeyAlgorithm: '1.2.840.10045.2.1', signatureAlgorithm: '1.2.840.10045.4.3.2' });
    const bob = parseCsr(b64(BOB));
    expect(bob).toMatchObject({ commonName: 'bob', organizations: ['devs'], dnsNames: ['bob.example.com'], ipAddresses: ['10.1.2.3'] });
    expect(parseCsr(b64('not pem'))).toEqual({ error: 'PEM block type must be CERTIFICATE REQUEST' });
    expect(parseCsr(b64('-----BEGIN CERTIFICATE REQUEST-----\nAAAA\n-----END CERTIFICATE REQUEST-----\n'))).toHaveProperty('error');
  });

  it('IsKubeletClientCSR', () => {
    const node = parseCsr(b64(KUBELET_CLIENT_CSR)) as any;
    expect(kubeletClientProblem(node, ['digital signature', 'key encipherment', 'client auth'])).toBeUndefined();
    expect(kubeletClientProblem(node, ['client auth'])).toBe('usages did not match [client auth digital signature key encipherment]');
    expect(kubeletClientProblem(parseCsr(b64(BOB)) as any, ['client auth'])).toBe('subject organization is not system:nodes');
  });
});

describe('csrapproving', () => {
  it('approves a node renewing its own client certificate, and a kubelet client request of an authorized user; leaves the rest', async () => {
    t = await startCluster('csrapproving');
    await t.post(CSRS, csr('self', KUBELET_CLIENT_CSR, 'kubernetes.io/kube-apiserver-client-kubelet'), { 'impersonate-user': 'system:node:node-1', 'impersonate-group': 'system:nodes' });
    await t.post(CSRS, csr('by-admin', KUBELET_CLIENT_CSR, 'kubernetes.io/kube-apiserver-client-kubelet'));
    await t.post(CSRS, csr('bob', BOB, 'kubernetes.io/kube-apiserver-client'));
    await t.post(CSRS, csr('wrong-usages', KUBELET_CLIENT_CSR, 'kubernetes.io/kube-apiserver-client-kubelet', ['client auth', 'server auth']));
    await t.settle();
    const conditions = async (name: string) => (await t!.get(`${CSRS}/${name}`)).json.status?.conditions;
    expect(await conditions('self')).toEqual([
      { type: 'Approved', status: 'True', reason: 'AutoApproved', message: 'Auto approving self kubelet client certificate after SubjectAccessReview.', lastUpdateTime: '2022-01-01T00:00:00Z', lastTransitionTime: '2022-01-01T00:00:00Z' },
    ]);
    expect((await conditions('by-admin'))[0]).toMatchObject({ reason: 'AutoApproved', message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    expect(await conditions('bob')).toBeUndefined();
    expect(await conditions('wrong-usages')).toBeUndefined();
    const self = (await t.get(`${CSRS}/self`)).json;
    expect(self.spec.username).toBe('system:node:node-1');
    const entry = self.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager');
    expect(entry).toMatchObject({ operation: 'Update', subresource: 'approval' });
  });
});
