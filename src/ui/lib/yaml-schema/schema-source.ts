// Kind schemas from the server's `/openapi/v3`: the index maps `apis/<group>/<version>` to a
// document URL that carries a content hash, so documents are cached by URL forever and only the
// index is re-read when a kind is missing (e.g. a CRD created since), one read at a time.
// A source that can also discover and list (the API client) gives the lookup a value catalog too.
import type { ResourceRef } from '../api-paths';
import type { GroupNode } from '../discovery';
import type { KindSchema, OpenApiDoc } from './openapi-schema';
import { findKindSchema } from './openapi-schema';
import type { SchemaLookup } from './validate';
import { createValueCatalog } from './value-catalog';

export interface OpenApiSource {
  openapiIndex(): Promise<Record<string, string>>;
  openapiDocument(serverRelativeURL: string): Promise<unknown>;
  discover?(): Promise<GroupNode[]>;
  list?(ref: ResourceRef): Promise<{ items: Array<{ metadata?: { name?: string } }> }>;
}

const NAMESPACES: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false };

export function createSchemaLookup(source: OpenApiSource): SchemaLookup {
  const lookup = createOpenApiLookup(source);
  const { discover, list } = source;
  if (discover && list) {
    lookup.values = createValueCatalog({
      discover: () => discover.call(source),
      namespaceNames: async () => (await list.call(source, NAMESPACES)).items.map((n) => n.metadata?.name ?? '').filter(Boolean),
    });
  }
  return lookup;
}

function createOpenApiLookup(source: OpenApiSource): SchemaLookup {
  let index: Promise<Record<string, string>> | undefined;
  let reading = false;
  const documents = new Map<string, Promise<OpenApiDoc>>();
  const readIndex = (fresh: boolean) => {
    if (!index || (fresh && !reading)) {
      reading = true;
      index = source.openapiIndex().then(
        (i) => ((reading = false), i),
        (e: unknown) => {
          reading = false;
          index = undefined;
          throw e;
        },
      );
    }
    return index;
  };
  const find = async (group: string, version: string, kind: string, fresh: boolean): Promise<KindSchema | undefined> => {
    const url = (await readIndex(fresh))[group ? `apis/${group}/${version}` : `api/${version}`];
    if (!url) return undefined;
    let doc = documents.get(url);
    if (!doc) documents.set(url, (doc = source.openapiDocument(url) as Promise<OpenApiDoc>));
    const d = await doc;
    const root = findKindSchema(d, group, version, kind);
    return root ? { doc: d, root } : undefined;
  };
  return async (group, version, kind) => (await find(group, version, kind, false)) ?? find(group, version, kind, true);
}
