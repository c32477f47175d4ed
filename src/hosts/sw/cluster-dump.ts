// Export and import of the whole cluster state as multi-document YAML, done through the API
// itself (discovery, then a list per resource; creates on import) so it needs no knowledge of the
// storage layout. Import goes through the API's create in its internal restore mode, which keeps
// each object's uid, creationTimestamp, generation, status and managedFields exactly; objects are
// created in their exported resourceVersion order, so the new store's resourceVersions (a new
// history, numbered from the fresh cluster's) keep the old ones' order.
import { parseAllDocuments, stringify } from 'yaml';
import type { ApiServer } from '../../core/api';
import { isStream } from '../../core/meta/types';
import { bodyText } from '../../core/codec/json';

type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string; uid?: string; [k: string]: unknown }; [k: string]: unknown };

interface ResourceRef {
  groupVersion: string;
  resource: string;
  kind: string;
  namespaced: boolean;
}

async function getJson<T>(server: ApiServer, url: string): Promise<T> {
  const res = await server.handle({ method: 'GET', url, headers: { accept: 'application/json' } });
  if (res.status !== 200 || isStream(res.body)) throw new Error(`GET ${url}: ${res.status}`);
  // Lists answer bytes, single objects text.
  return JSON.parse(bodyText(res.body)) as T;
}

/** Every listable top-level resource, preferred version of each group first. */
async function discover(server: ApiServer): Promise<ResourceRef[]> {
  const gvs = ['v1'];
  const groups = await getJson<{ groups: Array<{ preferredVersion: { groupVersion: string }; versions: Array<{ groupVersion: string }> }> }>(server, '/apis');
  for (const g of groups.groups) gvs.push(g.preferredVersion.groupVersion, ...g.versions.map((v) => v.groupVersion).filter((v) => v !== g.preferredVersion.groupVersion));
  const refs: ResourceRef[] = [];
  for (const gv of gvs) {
    const list = await getJson<{ resources: Array<{ name: string; kind: string; namespaced: boolean; verbs: string[] }> }>(server, gv === 'v1' ? '/api/v1' : `/apis/${gv}`);
    for (const r of list.resources) {
      if (!r.name.includes('/') && r.verbs.includes('list') && r.verbs.includes('create')) refs.push({ groupVersion: gv, resource: r.name, kind: r.kind, namespaced: r.namespaced });
    }
  }
  return refs;
}

function collectionUrl(ref: ResourceRef, namespace: string | undefined): string {
  const root = ref.groupVersion === 'v1' ? '/api/v1' : `/apis/${ref.groupVersion}`;
  return ref.namespaced && namespace ? `${root}/namespaces/${namespace}/${ref.resource}` : `${root}/${ref.resource}`;
}

/** All objects (each once, in its group's preferred version) as multi-document YAML. */
export async function exportCluster(server: ApiServer): Promise<string> {
  const seen = new Set<string>();
  const docs: string[] = [];
  for (const ref of await discover(server)) {
    const list = await getJson<{ items: Obj[] }>(server, collectionUrl(ref, undefined));
    for (const item of list.items) {
      const uid = item.metadata?.uid ?? '';
      // Events are served by two groups; other resources by several versions of one group.
      if (seen.has(uid)) continue;
      seen.add(uid);
      docs.push(stringify({ apiVersion: ref.groupVersion, kind: ref.kind, ...item }));
    }
  }
  return docs.map((d) => `---\n${d}`).join('');
}

export interface ImportResult {
  created: number;
  failed: Array<{ object: string; status: number; message: string }>;
}

/** Creates every document; namespaces and CRDs first so the rest have somewhere to go. */
/**
 * The objects with every owner they name (by uid) before them: the garbage collector deletes an
 * object whose owner does not exist, so a dependent must not arrive before its owner.
 */
export function ownersFirst(objs: Obj[]): Obj[] {
  const byUid = new Map<string, Obj>();
  for (const o of objs) if (typeof o.metadata?.uid === 'string') byUid.set(o.metadata.uid, o);
  const out: Obj[] = [];
  const placed = new Set<Obj>();
  const place = (o: Obj, depth: number) => {
    if (placed.has(o)) return;
    placed.add(o);
    // Depth-bounded: an ownership cycle (invalid anyway) cannot recurse forever.
    if (depth < 64) {
      for (const ref of Array.isArray(o.metadata?.ownerReferences) ? o.metadata.ownerReferences : []) {
        const owner = byUid.get(ref?.uid);
        if (owner) place(owner, depth + 1);
      }
    }
    out.push(o);
  };
  for (const o of objs) place(o, 0);
  return out;
}

/** Orders resourceVersion strings as the revisions they are; a missing or odd one sorts last. */
function compareRevisions(a: unknown, b: unknown): number {
  const rev = (v: unknown) => (typeof v === 'string' && /^[0-9]{1,20}$/.test(v) ? BigInt(v) : undefined);
  const x = rev(a);
  const y = rev(b);
  if (x === undefined || y === undefined) return (x === undefined ? 1 : 0) - (y === undefined ? 1 : 0);
  return x < y ? -1 : x > y ? 1 : 0;
}

export async function importCluster(server: ApiServer, yamlText: string): Promise<ImportResult> {
  const objs = parseAllDocuments(yamlText).map((d) => d.toJSON() as Obj | null).filter((o): o is Obj => !!o && !!o.kind);
  const rank = (o: Obj) => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);
  // Within a rank, in the order the source cluster wrote them: the new resourceVersions keep the
  // old ones' order, so "which was written last" reads the same after an import.
  objs.sort((a, b) => rank(a) - rank(b) || compareRevisions(a.metadata?.resourceVersion, b.metadata?.resourceVersion));
  const result: ImportResult = { created: 0, failed: [] };
  let refs = await discover(server);
  for (const obj of ownersFirst(objs)) {
    if (rank(obj) === 2 && refs.length && !refs.some((r) => r.kind === obj.kind && r.groupVersion === obj.apiVersion)) refs = await discover(server);
    const ref = refs.find((r) => r.kind === obj.kind && r.groupVersion === obj.apiVersion);
    const label = `${obj.kind}/${obj.metadata?.name ?? ''}`;
    if (!ref) {
      result.failed.push({ object: label, status: 404, message: `no resource for ${obj.apiVersion} ${obj.kind}` });
      continue;
    }
    const meta = { ...obj.metadata };
    delete meta.resourceVersion;
    const collection = collectionUrl(ref, meta.namespace ?? 'default');
    // Objects a fresh cluster bootstraps (default namespaces, the kubernetes Service) stay as they are.
    const existing = await server.handle({ method: 'GET', url: `${collection}/${meta.name ?? ''}`, headers: { accept: 'application/json' } });
    if (existing.status === 200) continue;
    const res = await server.handle({
      method: 'POST',
      url: collection,
      restore: true,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: new TextEncoder().encode(JSON.stringify({ ...obj, metadata: meta })),
    });
    if (res.status === 201) result.created++;
    else result.failed.push({ object: label, status: res.status, message: isStream(res.body) ? '' : ((JSON.parse(bodyText(res.body) || '{}') as { message?: string }).message ?? '') });
  }
  return result;
}
