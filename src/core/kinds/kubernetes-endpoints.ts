// The `default/kubernetes` Endpoints and EndpointSlice: kube-apiserver's bootstrap controller
// publishes its own address behind the `kubernetes` Service (bootstrapServices) through the lease
// endpoint reconciler and its endpoints adapter. Here they are reconciled once, at start: created
// when missing and rewritten where the reconciler would rewrite them, so a store saved under
// another address (the browser's IndexedDB) comes back pointing at this server.
import { objectKey, type ServedResource } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { createObject, deleteObject, updateObject } from '../registry/store';
import { clone, deepEqual, type Obj } from '../registry/objects';
import type { FieldOwner } from '../registry/managed-fields';
import { nonSpecialIPMessages } from '../validation/ip-address';

const NAMESPACE = 'default';
const NAME = 'kubernetes';
/** The API server's secure port (the `kubernetes` Service's targetPort); a fresh copy each time, as writes mutate their input. */
const endpointPorts = (): Obj[] => [{ name: 'https', port: 6443, protocol: 'TCP' }];
/** kube-apiserver's internal client writes these, so kube records it as the field manager. */
const OWNER: FieldOwner = { manager: 'kube-apiserver' };
const SKIP_MIRROR = 'endpointslice.kubernetes.io/skip-mirror';
const SERVICE_NAME = 'kubernetes.io/service-name';

/**
 * Used when the server's address is no usable endpoint IP. kube-apiserver would advertise its
 * host's primary interface address; this one is what a kind cluster's single control-plane node
 * gets on kind's docker network, so `kubectl get endpoints` looks like a typical local cluster.
 */
export const FALLBACK_ADVERTISE_ADDRESS = '172.18.0.2';

/**
 * The address the Endpoints carry: the IP of `serverAddress` (`host:port` or a bare host) when it
 * is an IPv4 literal kube would accept there. Endpoints validation refuses unspecified (0.0.0.0),
 * loopback (127/8) and link-local (169.254/16, 224.0.0/24) addresses, so a real server listening
 * on 127.0.0.1 could never publish that; hostnames and IPv6 literals (the `kubernetes` Service is
 * IPv4 only) fall back too.
 */
export function advertiseAddress(serverAddress: string | undefined): string {
  let host = serverAddress ?? '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && host.indexOf(':') === colon) host = host.slice(0, colon);
  // Go's net.ParseIP takes four decimal octets without leading zeros.
  const dotted = /^(0|[1-9][0-9]{0,2})(\.(0|[1-9][0-9]{0,2})){3}$/.test(host);
  return dotted && nonSpecialIPMessages(host).length === 0 ? host : FALLBACK_ADVERTISE_ADDRESS;
}

async function readStored(ctx: RegistryContext, r: ServedResource): Promise<Obj | undefined> {
  const kv = await ctx.mvcc.get(objectKey(r, NAMESPACE, NAME));
  return kv ? (JSON.parse(kv.value) as Obj) : undefined;
}

const UPDATE = { dryRun: false, subresource: '', allowCreate: false, checkName: false, owner: OWNER };

/**
 * The lease reconciler's checks, for a single API server: the skip-mirror label (kept with any
 * other labels), exactly one subset, its ready addresses exactly this IP, its ports exactly 6443.
 * Returns the Endpoints as they should be, or undefined when they already are.
 */
export function reconciledEndpoints(current: Obj, ip: string): Obj | undefined {
  const e = clone(current);
  const labels = (e.metadata.labels ??= {});
  const labelChanged = labels[SKIP_MIRROR] !== 'true';
  labels[SKIP_MIRROR] = 'true';
  const subsets: Obj[] = Array.isArray(e.subsets) ? e.subsets : [];
  const formatCorrect = subsets.length === 1;
  const addresses: Obj[] = formatCorrect && Array.isArray(subsets[0].addresses) ? subsets[0].addresses : [];
  const ipsCorrect = formatCorrect && addresses.length === 1 && addresses[0].ip === ip;
  const portsCorrect = formatCorrect && deepEqual(subsets[0].ports ?? [], endpointPorts());
  if (!labelChanged && formatCorrect && ipsCorrect && portsCorrect) return undefined;
  // A wrong shape is remade from scratch; otherwise only the wrong part is replaced.
  if (!formatCorrect) e.subsets = [{ addresses: [], ports: endpointPorts() }];
  const subset = e.subsets[0];
  if (!ipsCorrect) {
    subset.addresses = [{ ip }];
    // Repacking keeps not-ready addresses, except one that is now ready.
    if (Array.isArray(subset.notReadyAddresses)) {
      subset.notReadyAddresses = subset.notReadyAddresses.filter((a: Obj) => a.ip !== ip);
      if (!subset.notReadyAddresses.length) delete subset.notReadyAddresses;
    }
  }
  if (!portsCorrect) subset.ports = endpointPorts();
  return e;
}

/** The EndpointSlice the endpoints adapter derives from the Endpoints (first subset only). */
export function sliceFromEndpoints(endpoints: Obj): Obj {
  const subset: Obj = Array.isArray(endpoints.subsets) && endpoints.subsets.length ? endpoints.subsets[0] : {};
  const ready: Obj[] = subset.addresses ?? [];
  const notReady: Obj[] = subset.notReadyAddresses ?? [];
  const isV6 = (a: Obj) => String(a.ip).includes(':');
  const all = [...ready, ...notReady];
  const addressType = all.length > 0 && all.every(isV6) ? 'IPv6' : 'IPv4';
  const endpoint = (a: Obj, isReady: boolean): Obj => {
    const ep: Obj = { addresses: [a.ip], conditions: { ready: isReady } };
    if (a.targetRef) ep.targetRef = a.targetRef;
    if (a.nodeName) ep.nodeName = a.nodeName;
    return ep;
  };
  const slice: Obj = { metadata: { name: NAME, namespace: NAMESPACE, labels: { [SERVICE_NAME]: NAME } }, addressType };
  const endpointList = [...ready.filter((a) => isV6(a) === (addressType === 'IPv6')).map((a) => endpoint(a, true)), ...notReady.filter((a) => isV6(a) === (addressType === 'IPv6')).map((a) => endpoint(a, false))];
  if (endpointList.length) slice.endpoints = endpointList;
  const ports = (subset.ports ?? []).map((p: Obj) => ({ name: p.name ?? '', protocol: p.protocol, port: p.port }));
  if (ports.length) slice.ports = ports;
  return slice;
}

/** Would the adapter leave this slice alone? (It compares endpoints, ports and labels.) */
function sliceMatches(current: Obj, want: Obj): boolean {
  return deepEqual(current.endpoints ?? [], want.endpoints ?? []) && deepEqual(current.ports ?? [], want.ports ?? []) && deepEqual(current.metadata?.labels ?? {}, want.metadata.labels);
}

async function ensureSlice(ctx: RegistryContext, endpoints: Obj): Promise<void> {
  const r = ctx.catalog.lookup('discovery.k8s.io', 'v1', 'endpointslices');
  if (!r) return;
  const want = sliceFromEndpoints(endpoints);
  const current = await readStored(ctx, r);
  if (current && current.addressType !== want.addressType) {
    // The address type cannot change in an update: the adapter deletes and creates again.
    await deleteObject(ctx, r, NAMESPACE, NAME, { dryRun: false });
  } else if (current) {
    if (sliceMatches(current, want)) return;
    // The adapter sends a fresh object: identity and history stay, other metadata goes.
    await updateObject(ctx, r, NAMESPACE, NAME, (cur) => {
      const { uid, resourceVersion, generation, creationTimestamp, managedFields } = cur.metadata ?? {};
      return { ...want, metadata: { ...want.metadata, uid, resourceVersion, generation, creationTimestamp, managedFields } };
    }, UPDATE);
    return;
  }
  await createObject(ctx, r, NAMESPACE, want, false, OWNER);
}

/** Creates or corrects `default/kubernetes` Endpoints and EndpointSlice for this server's address. */
export async function bootstrapKubernetesEndpoints(ctx: RegistryContext, serverAddress: string | undefined): Promise<void> {
  const r = ctx.catalog.lookup('', 'v1', 'endpoints');
  if (!r) return;
  const ip = advertiseAddress(serverAddress);
  const current = await readStored(ctx, r);
  let endpoints: Obj;
  if (!current) {
    endpoints = { metadata: { name: NAME, namespace: NAMESPACE, labels: { [SKIP_MIRROR]: 'true' } }, subsets: [{ addresses: [{ ip }], ports: endpointPorts() }] };
    await createObject(ctx, r, NAMESPACE, clone(endpoints), false, OWNER);
  } else {
    endpoints = reconciledEndpoints(current, ip) ?? current;
    if (endpoints !== current) await updateObject(ctx, r, NAMESPACE, NAME, (cur) => reconciledEndpoints(cur, ip) ?? cur, UPDATE);
  }
  await ensureSlice(ctx, endpoints);
}
