// The cluster's CA certificate: what kube-controller-manager's --root-ca-file gives the
// root-ca-cert-publisher and the service-account token controller (`ca.crt` in every namespace
// and token Secret). A host with a real CA (the Node host's --secure-port) passes it; otherwise
// the cluster makes a self-signed one once and keeps it in storage, so a persisted (IndexedDB)
// cluster publishes the same certificate after every restart.
//
// It is kept in a ConfigMap, not a Secret: a CA certificate is public (kube itself publishes CA
// bundles in ConfigMaps: kube-root-ca.crt, kube-system/extension-apiserver-authentication), and
// its private key, the part a Secret would protect, is never stored. kube-system holds it, like
// the service-account signing key, because that namespace cannot be deleted.
import type { RegistryContext } from '../registry/context';
import { objectKey, type ServedResource } from '../registry/catalog';
import type { Obj } from '../registry/objects';
import { createObject, updateObject } from '../registry/store';
import { ApiError } from '../meta/status';
import { createSelfSignedCa } from './self-signed-ca';

export const CLUSTER_CA_CONFIGMAP = 'kube-playground-cluster-ca';
const NAMESPACE = 'kube-system';
const DATA_KEY = 'ca.crt';

interface CaState {
  /** The host's CA: used as given, never stored. */
  fromHost?: string;
  /** The stored (or just made) certificate, loaded once. */
  loading?: Promise<string>;
}

// A symbol on the context, not a WeakMap: per-request contexts inherit from the server's one
// (Object.create), and a property lookup follows the prototype chain.
const STATE = Symbol('cluster CA');

function stateOf(ctx: RegistryContext): CaState {
  const holder = ctx as RegistryContext & { [STATE]?: CaState };
  return (holder[STATE] ??= {});
}

/** Called once by the API server with the host's CA certificate, when the host has one. */
export function configureClusterCa(ctx: RegistryContext, hostCaPem: string | undefined): void {
  if (hostCaPem) stateOf(ctx).fromHost = hostCaPem;
}

/** The PEM of the cluster's CA certificate. */
export function clusterCaPem(ctx: RegistryContext): Promise<string> {
  const state = stateOf(ctx);
  if (state.fromHost) return Promise.resolve(state.fromHost);
  if (!state.loading) {
    const attempt = loadOrCreate(ctx);
    state.loading = attempt;
    // A failed attempt (storage full) is not cached: the next caller tries again.
    attempt.catch(() => {
      if (state.loading === attempt) state.loading = undefined;
    });
  }
  return state.loading;
}

function isCertificatePem(text: unknown): text is string {
  return typeof text === 'string' && /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n?$/.test(text);
}

async function loadOrCreate(ctx: RegistryContext): Promise<string> {
  const r = configMaps(ctx);
  const key = objectKey(r, NAMESPACE, CLUSTER_CA_CONFIGMAP);
  const read = async () => {
    const kv = await ctx.mvcc.get(key);
    return kv ? (JSON.parse(kv.value) as Obj) : undefined;
  };
  const stored = await read();
  const have = stored?.data?.[DATA_KEY];
  if (isCertificatePem(have)) return have;
  const pem = await createSelfSignedCa({ notBefore: ctx.now() });
  try {
    if (stored) {
      // Someone emptied or broke it: a new CA replaces it.
      await updateObject(ctx, r, NAMESPACE, CLUSTER_CA_CONFIGMAP, (cur) => ({ ...cur, data: { ...(cur.data ?? {}), [DATA_KEY]: pem } }), { dryRun: false, subresource: '', allowCreate: false, checkName: false });
    } else {
      await createObject(ctx, r, NAMESPACE, { metadata: { name: CLUSTER_CA_CONFIGMAP }, data: { [DATA_KEY]: pem } }, false);
    }
  } catch (err) {
    // Another writer (an import of an exported cluster) got there first: its certificate wins.
    if (!(err instanceof ApiError && (err.code === 409 || err.code === 404))) throw err;
    const theirs = (await read())?.data?.[DATA_KEY];
    if (isCertificatePem(theirs)) return theirs;
    throw err;
  }
  return pem;
}

function configMaps(ctx: RegistryContext): ServedResource {
  const r = ctx.catalog.lookup('', 'v1', 'configmaps');
  if (!r) throw new Error('configmaps are not served');
  return r;
}
