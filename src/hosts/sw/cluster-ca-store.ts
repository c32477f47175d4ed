// The browser cluster's CA with its private key, as the Node host keeps ca.crt and ca.key in its
// data dir: made once (WebCrypto, P-256), kept in a small IndexedDB database of its own, and given
// to every API server the worker opens as its cluster CA (`ca.crt` in kube-root-ca.crt and token
// Secrets) and as the csrsigning controller's signing CA, so approved kubelet CSRs are issued in
// the tab too. It lives outside the cluster's database: a cluster reset or an export leaves it
// alone (as an etcd wipe leaves kubeadm's pki), and the key is never an API object.
// Without IndexedDB the CA lives for as long as the worker runs.
import { createSigningCa } from '../../core/auth/self-signed-ca';
import { openDatabase, request } from './settings-store';

export interface SigningCaPem {
  certPem: string;
  keyPem: string;
}

export interface ClusterCaStore {
  /** The CA, made and saved on first use. */
  load(): Promise<SigningCaPem>;
}

const STORE = 'settings';
const KEY = 'cluster-ca';

function isCa(v: unknown): v is SigningCaPem {
  const o = v as Partial<SigningCaPem> | undefined;
  return typeof o?.certPem === 'string' && o.certPem.includes('BEGIN CERTIFICATE') && typeof o.keyPem === 'string' && o.keyPem.includes('BEGIN PRIVATE KEY');
}

export function createClusterCaStore(opts: { dbName: string; indexedDB?: IDBFactory }): ClusterCaStore {
  let loading: Promise<SigningCaPem> | undefined;
  const loadOrCreate = async (): Promise<SigningCaPem> => {
    const conn = await openDatabase(opts.indexedDB ?? globalThis.indexedDB, opts.dbName).catch(() => undefined);
    const saved = conn ? await request<unknown>(conn.transaction(STORE, 'readonly').objectStore(STORE).get(KEY)) : undefined;
    if (isCa(saved)) return { certPem: saved.certPem, keyPem: saved.keyPem };
    const ca = await createSigningCa();
    if (conn) {
      // `add`, not `put`: a second worker that made its own at the same moment keeps the first one's.
      const tx = conn.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).add({ ...ca }, KEY);
      const stored = await new Promise<boolean>((resolve) => {
        tx.oncomplete = () => resolve(true);
        tx.onabort = () => resolve(false);
      });
      if (!stored) {
        const theirs = await request<unknown>(conn.transaction(STORE, 'readonly').objectStore(STORE).get(KEY));
        if (isCa(theirs)) return { certPem: theirs.certPem, keyPem: theirs.keyPem };
      }
    }
    return ca;
  };
  return {
    load() {
      if (!loading) {
        const attempt = loadOrCreate();
        loading = attempt;
        // A failed attempt is not kept: the next open tries again.
        attempt.catch(() => {
          if (loading === attempt) loading = undefined;
        });
      }
      return loading;
    },
  };
}

/**
 * The API options that make the store's CA the cluster's CA and its signing CA; none when it
 * cannot be had (no WebCrypto), so the API still opens (the core then makes a certificate-only CA).
 */
export async function clusterCaOptions(store: ClusterCaStore): Promise<{ clusterCaCert?: string; clusterSigning?: SigningCaPem }> {
  try {
    const ca = await store.load();
    return { clusterCaCert: ca.certPem, clusterSigning: ca };
  } catch (error) {
    console.warn('the cluster CA could not be made; approved CSRs will not be signed:', error);
    return {};
  }
}
