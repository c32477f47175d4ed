// The browser host's cluster CA: made once, kept in IndexedDB across worker restarts, and given
// to the API so the csrsigning controller issues approved kubelet certificates with it.
import 'fake-indexeddb/auto';
import { X509Certificate } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { clusterCaOptions, createClusterCaStore } from './cluster-ca-store';
import { startCluster } from '../../core/testing/controllers';
import { KUBELET_CLIENT_CSR } from '../../core/testing/csr-fixtures';

const CSRS = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

describe('browser cluster CA', () => {
  it('is made once and found again by the next worker', async () => {
    const indexedDB = new IDBFactory();
    const first = await createClusterCaStore({ dbName: 'ca-test', indexedDB }).load();
    const again = await createClusterCaStore({ dbName: 'ca-test', indexedDB }).load();
    expect(again).toEqual(first);
    const cert = new X509Certificate(first.certPem);
    expect(cert.ca).toBe(true);
    expect(cert.subject).toBe('CN=kubernetes');
  });

  it('signs an approved kubelet CSR and is the ca.crt the cluster publishes', async () => {
    const store = createClusterCaStore({ dbName: 'ca-sign', indexedDB: new IDBFactory() });
    const options = await clusterCaOptions(store);
    const t = await startCluster('csrapproving,csrsigning,root-ca-cert-publisher', {}, options);
    try {
      await t.post(CSRS, {
        apiVersion: 'certificates.k8s.io/v1',
        kind: 'CertificateSigningRequest',
        metadata: { name: 'node-1-client' },
        spec: { request: Buffer.from(KUBELET_CLIENT_CSR).toString('base64'), signerName: 'kubernetes.io/kube-apiserver-client-kubelet', usages: ['digital signature', 'client auth'] },
      });
      await t.settle();
      const status = (await t.get(`${CSRS}/node-1-client`)).json.status;
      const issued = new X509Certificate(Buffer.from(status.certificate, 'base64'));
      const ca = new X509Certificate((await store.load()).certPem);
      expect(issued.verify(ca.publicKey)).toBe(true);
      expect(issued.checkIssued(ca)).toBe(true);
      expect(issued.subject).toBe('O=system:nodes\nCN=system:node:node-1');
      const published = (await t.get('/api/v1/namespaces/default/configmaps/kube-root-ca.crt')).json.data['ca.crt'];
      expect(published).toBe(ca.toString());
    } finally {
      await t.close();
    }
  });
});
