import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startCluster, type ClusterTest } from '../testing/controllers';
import { KUBELET_CLIENT_CSR as CLIENT } from '../testing/csr-fixtures';

let t: ClusterTest | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// A throw-away test CA (openssl req -x509 -newkey ec, P-256), standing in for the Node host's.
const CA_CERT = `-----BEGIN CERTIFICATE-----
MIIBizCCATGgAwIBAgIUJ36Eh/Q7zOBD0Zeak2sZBCnyRJ8wCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPdGVzdC1zaWduaW5nLWNhMCAXDTI2MTEyODA2NDk0NVoYDzIx
MjYxMTA0MDY0OTQ1WjAaMRgwFgYDVQQDDA90ZXN0LXNpZ25pbmctY2EwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQg+ITB+/zuVLgbkeCDpIdNyUYblYOv4qyZNdKJ
HJVKeHz0Tp7FTMZUAUJQTMaJ9Ge4q6F1wVTOX7fahqV/I/Jzo1MwUTAdBgNVHQ4E
FgQU0JPB8m25ssJXUcQ0ifI83OOTrEgwHwYDVR0jBBgwFoAU0JPB8m25ssJXUcQ0
ifI83OOTrEgwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiATu6UE
ldlOfghSRJZoX/D8FRitHJjfw9M0B0N2l75DBAIhAIrxL3dgm0Z95DP55e65OLHl
ZEZBNH54mbHCqS9jUr1y
-----END CERTIFICATE-----
`;
const CA_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgVssqj2t+0rC5dc3E
5LGp25tWbz7XhrT6nilIP3ONmUGhRANCAAQg+ITB+/zuVLgbkeCDpIdNyUYblYOv
4qyZNdKJHJVKeHz0Tp7FTMZUAUJQTMaJ9Ge4q6F1wVTOX7fahqV/I/Jz
-----END PRIVATE KEY-----
`;
// -subj "/O=system:nodes/CN=system:node:node-2" -addext "subjectAltName=DNS:node-2,IP:172.18.0.3"
const SERVING = `-----BEGIN CERTIFICATE REQUEST-----
MIIBGDCBwAIBADA0MRUwEwYDVQQKDAxzeXN0ZW06bm9kZXMxGzAZBgNVBAMMEnN5
c3RlbTpub2RlOm5vZGUtMjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABO3jSHTm
vWSxLX9PMmhSLBbZXvEzm8feekCJm9r2eHGdafXI65I6NYO/DX0/uZbH7Cezd/Ev
cAKELUpqedtcMA2gKjAoBgkqhkiG9w0BCQ4xGzAZMBcGA1UdEQQQMA6CBm5vZGUt
MocErBIAAzAKBggqhkjOPQQDAgNHADBEAiB/mmY8J7I1p3kgTk6aqBR0KR7wUVNK
rr/ZQJMgg9lNMQIgGEp5H+jWhHIvTzIzPcpJhuWNAWNroQ79h2efnzzVsR0=
-----END CERTIFICATE REQUEST-----
`;

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const csr = (name: string, pem: string, signerName: string, usages: string[], extra: Record<string, unknown> = {}) => ({
  apiVersion: 'certificates.k8s.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: Buffer.from(pem).toString('base64'), signerName, usages, ...extra },
});

async function approve(name: string): Promise<void> {
  const cur = (await t!.get(`${CSRS}/${name}`)).json;
  const r = await t!.put(`${CSRS}/${name}/approval`, { ...cur, status: { conditions: [{ type: 'Approved', status: 'True', reason: 'KubectlApprove', message: 'ok' }] } });
  expect(r.status).toBe(200);
}

const certificateOf = async (name: string) => {
  const s = (await t!.get(`${CSRS}/${name}`)).json.status;
  return s.certificate ? new X509Certificate(Buffer.from(s.certificate, 'base64')) : undefined;
};

describe('csrsigning', () => {
  it('signs approved requests of kube signers with the cluster signing CA, and fails the ones a signer refuses', async () => {
    t = await startCluster('csrapproving,csrsigning', {}, { clusterSigning: { certPem: CA_CERT, keyPem: CA_KEY } });
    const ca = new X509Certificate(CA_CERT);
    // A kubelet client certificate: approved by csrapproving, signed for the requested hour.
    await t.post(CSRS, csr('client', CLIENT, 'kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth'], { expirationSeconds: 3600 }));
    await t.post(CSRS, csr('serving', SERVING, 'kubernetes.io/kubelet-serving', ['digital signature', 'key encipherment', 'server auth']));
    await t.post(CSRS, csr('bad-usage', SERVING, 'kubernetes.io/kube-apiserver-client', ['server auth']));
    await t.post(CSRS, csr('unapproved', SERVING, 'kubernetes.io/kubelet-serving', ['digital signature', 'server auth']));
    await t.settle();
    await approve('serving');
    await approve('bad-usage');
    await t.settle();

    const client = (await certificateOf('client'))!;
    expect(client.verify(ca.publicKey)).toBe(true);
    expect(client.checkIssued(ca)).toBe(true);
    expect(client.subject).toBe('O=system:nodes\nCN=system:node:node-1');
    expect(client.issuer).toBe('CN=test-signing-ca');
    expect(client.ca).toBe(false);
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(Date.parse(client.validTo) - Date.parse(client.validFrom)).toBe(3600_000 + 300_000);
    expect(Date.parse(client.validFrom)).toBe(Date.UTC(2022, 0, 1) - 300_000);

    const serving = (await certificateOf('serving'))!;
    expect(serving.verify(ca.publicKey)).toBe(true);
    expect(serving.subjectAltName).toBe('DNS:node-2, IP Address:172.18.0.3');
    expect(serving.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(Date.parse(serving.validTo) - Date.parse(serving.validFrom)).toBe(365 * 24 * 3600_000 + 300_000);

    const bad = (await t.get(`${CSRS}/bad-usage`)).json;
    expect(bad.status.certificate).toBeUndefined();
    expect(bad.status.conditions[1]).toMatchObject({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    expect(await certificateOf('unapproved')).toBeUndefined();
  });

  it('does nothing without a signing CA, as kube-controller-manager without --cluster-signing-* files', async () => {
    t = await startCluster('csrapproving,csrsigning');
    await t.post(CSRS, csr('client', CLIENT, 'kubernetes.io/kube-apiserver-client-kubelet', ['digital signature', 'client auth']));
    await t.settle();
    const s = (await t.get(`${CSRS}/client`)).json.status;
    expect(s.conditions[0].type).toBe('Approved');
    expect(s.certificate).toBeUndefined();
  });
});
