// Values the editor offers that come from the cluster rather than from a schema: the apiVersions
// and kinds discovery lists, and the names of the namespaces. Each is read when first asked for and
// kept for a few seconds, so typing through a manifest does not re-read them on every keystroke; an
// apiVersion discovery does not know yet (a CRD created since) makes it read discovery again.
import type { GroupNode } from '../discovery';

export interface ValueCatalog {
  /** `v1`, `apps/v1`, ... in discovery order (preferred versions first within a group). */
  apiVersions(): Promise<string[]>;
  /** Kinds served in one apiVersion; every kind when the apiVersion is unknown or empty. */
  kinds(apiVersion: string | undefined): Promise<string[]>;
  namespaces(): Promise<string[]>;
}

export interface CatalogSource {
  discover(): Promise<GroupNode[]>;
  namespaceNames(): Promise<string[]>;
}

/** A value kept for `ttlMs` (or until asked for a fresh one); a failed read is forgotten at once so the next request retries. */
function cached<T>(read: () => Promise<T>, ttlMs: number, now: () => number): (fresh?: boolean) => Promise<T> {
  let value: Promise<T> | undefined;
  let at = 0;
  return (fresh = false) => {
    if (!value || fresh || now() - at > ttlMs) {
      at = now();
      value = read();
      value.catch(() => (value = undefined));
    }
    return value;
  };
}

const apiVersionOf = (group: string, version: string) => (group ? `${group}/${version}` : version);

export function createValueCatalog(source: CatalogSource, ttlMs = 5_000, now: () => number = Date.now): ValueCatalog {
  const discovery = cached(() => source.discover(), ttlMs, now);
  const namespaces = cached(() => source.namespaceNames(), ttlMs, now);
  return {
    async apiVersions() {
      return (await discovery()).flatMap((g) => g.versions.map((v) => apiVersionOf(g.name, v.version)));
    },
    async kinds(apiVersion) {
      const pick = (groups: GroupNode[]) => groups.flatMap((g) => g.versions.filter((v) => !apiVersion || apiVersionOf(g.name, v.version) === apiVersion));
      let versions = pick(await discovery());
      if (apiVersion && versions.length === 0) versions = pick(await discovery(true));
      return [...new Set(versions.flatMap((v) => v.resources.map((r) => r.kind)).filter(Boolean))].sort();
    },
    async namespaces() {
      return [...(await namespaces())].sort();
    },
  };
}
