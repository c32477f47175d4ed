// ControllerRevisions as kube's StatefulSet and DaemonSet controllers keep them
// (pkg/controller/history and daemonset/update.go): the revision's data is the patch that
// replaces spec.template, revisions are numbered one past the highest, a template that returns
// to an earlier revision takes that revision over with a new number, and history beyond
// revisionHistoryLimit is deleted oldest first unless a live pod still runs it.
import { clone, type Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { ownerRefTo } from './pods';

/** history.ControllerRevisionHashLabel. */
export const REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';
/** apps.ControllerRevisionHashLabelKey: the label pods carry naming their revision. */
export const POD_REVISION_LABEL = 'controller-revision-hash';

/** rand.SafeEncodeString's alphabet: no vowels, no look-alike digits. */
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * Go's encoding/json output for a value that went through map[string]interface{}: keys sorted
 * at every level, and <, >, & escaped as Go escapes them. The revision hash is taken over these
 * bytes, as kube takes it over the patch it marshals.
 */
export function goJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Obj;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${goString(k)}:${goJson(o[k])}`)
      .join(',')}}`;
  }
  if (typeof v === 'string') return goString(v);
  return JSON.stringify(v ?? null);
}

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** getPatch: `{"spec":{"template":{...,"$patch":"replace"}}}` of the set's or daemon set's template. */
export function templatePatch(owner: Obj): Obj {
  const template = clone(owner.spec?.template ?? {}) as Obj;
  // A Go struct always marshals metadata.creationTimestamp (as null when unset).
  template.metadata = { creationTimestamp: null, ...(template.metadata ?? {}) };
  template.$patch = 'replace';
  return { spec: { template } };
}

function safeEncode(n: number): string {
  return [...String(n)].map((c) => SAFE[c.charCodeAt(0) % SAFE.length]).join('');
}

/** HashControllerRevision: FNV-1 (not 1a) over the data's bytes, then the collision count, safe-encoded. */
export function hashRevisionData(data: Obj, collisionCount?: number): string {
  let h = 0x811c9dc5;
  const text = goJson(data) + (collisionCount !== undefined && collisionCount !== null ? String(collisionCount) : '');
  for (const b of new TextEncoder().encode(text)) {
    h = Math.imul(h, 0x01000193) >>> 0;
    h = (h ^ b) >>> 0;
  }
  return safeEncode(h);
}

export function revisionNumber(cr: Obj): number {
  return Number(cr.revision ?? 0);
}

/** history.SortControllerRevisions: by revision, then creation, then name. */
export function sortRevisions(list: Obj[]): Obj[] {
  return [...list].sort((a, b) => revisionNumber(a) - revisionNumber(b) || String(a.metadata?.creationTimestamp).localeCompare(String(b.metadata?.creationTimestamp)) || String(a.metadata?.name).localeCompare(String(b.metadata?.name)));
}

export function nextRevision(list: Obj[]): number {
  return list.reduce((n, cr) => Math.max(n, revisionNumber(cr)), 0) + 1;
}

/** EqualRevision: same data (the hash labels are a shortcut kube also compares first). */
export function equalRevision(a: Obj, b: Obj): boolean {
  return goJson(a.data ?? {}) === goJson(b.data ?? {});
}

export interface RevisionOwner {
  owner: Obj;
  apiVersion: string;
  kind: string;
}

/**
 * The revisions the owner controls in its namespace, from a cache of all ControllerRevisions
 * (kube's ListControllerRevisions plus ControllerRef filtering; orphans are not adopted here).
 */
export function ownedRevisions(all: Obj[], owner: Obj): Obj[] {
  return all.filter((cr) => cr.metadata?.namespace === owner.metadata.namespace && (cr.metadata?.ownerReferences ?? []).some((r: Obj) => r.controller === true && r.uid === owner.metadata.uid));
}

export class RevisionWriter {
  constructor(private readonly client: ApiClient) {}

  private path(ns: string, name?: string): string {
    return `/apis/apps/v1/namespaces/${ns}/controllerrevisions${name ? `/${name}` : ''}`;
  }

  /**
   * CreateControllerRevision: creates `revision`, its hash in the `hashLabel` label; a name taken by a revision with the same data
   * is that revision, one with other data is a hash collision (the count goes up and the next
   * name is tried, as kube's loop does). Returns the revision and the collision count used.
   */
  async create(revision: Obj, collisionCount: number, hashLabel: string, hashOf: (count: number) => string, owner: Obj): Promise<{ revision: Obj; collisionCount: number }> {
    const ns = String(owner.metadata.namespace);
    for (let count = collisionCount; ; count++) {
      const hash = hashOf(count);
      const cr = clone(revision) as Obj;
      cr.metadata.name = controllerRevisionName(String(owner.metadata.name), hash);
      cr.metadata.labels = { ...(cr.metadata.labels ?? {}), [hashLabel]: hash };
      try {
        return { revision: await this.client.create(this.path(ns), cr), collisionCount: count };
      } catch (err) {
        if (!(err instanceof ApiCallError && err.code === 409)) throw err;
        const existing = await this.client.getOrUndefined(this.path(ns, cr.metadata.name));
        if (existing && existing.metadata?.ownerReferences?.some((r: Obj) => r.uid === owner.metadata.uid) && equalRevision(existing, cr)) return { revision: existing, collisionCount: count };
      }
    }
  }

  /** UpdateControllerRevision: an old revision becomes current again under a new number. */
  async renumber(cr: Obj, revision: number): Promise<Obj> {
    if (revisionNumber(cr) === revision) return cr;
    return this.client.update(this.path(String(cr.metadata.namespace), String(cr.metadata.name)), { ...cr, apiVersion: 'apps/v1', kind: 'ControllerRevision', revision });
  }

  /** truncateHistory / cleanupHistory: old revisions no live pod runs, beyond the limit, oldest first. */
  async truncate(revisions: Obj[], keep: Set<string>, limit: number): Promise<void> {
    const candidates = sortRevisions(revisions).filter((cr) => !keep.has(String(cr.metadata.name)));
    const excess = candidates.length - limit;
    for (const cr of candidates.slice(0, Math.max(0, excess))) {
      try {
        await this.client.delete(this.path(String(cr.metadata.namespace), String(cr.metadata.name)));
      } catch (err) {
        if (!(err instanceof ApiCallError && err.code === 404)) throw err;
      }
    }
  }
}

/** ControllerRevisionName: `<owner>-<hash>`, the owner's name cut to 223 characters first. */
export function controllerRevisionName(owner: string, hash: string): string {
  return `${owner.length > 223 ? owner.slice(0, 223) : owner}-${hash}`;
}

/** A revision object (not yet named) for the owner's current template. */
export function newRevisionObject(o: RevisionOwner, revision: number, labels: Record<string, string>, annotations?: Record<string, string>): Obj {
  const metadata: Obj = { namespace: o.owner.metadata.namespace, labels: { ...labels }, ownerReferences: [ownerRefTo(o.owner, o.apiVersion, o.kind)] };
  if (annotations && Object.keys(annotations).length) metadata.annotations = { ...annotations };
  return { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata, data: templatePatch(o.owner), revision };
}
