// OpenAPI v3: the `/openapi/v3` index and one OpenAPI 3.0 document per served group/version,
// built lazily from the resource list and cached per group/version. A document is rebuilt only
// when the resources (or custom schemas) of its own group/version change, so adding a CRD does
// not invalidate `api/v1`. `/openapi/v2` (one Swagger 2.0 document) is built in openapi-v2.ts.
import type { ResourceInfo, SubresourceInfo } from '../schema/resource-info';
import { definitions as builtinDefinitions, type SchemaNode } from '../schema';
import { customComponentName, customKindSchema, customListSchema } from '../schema/custom-schema';
import { contentHash } from '../schema/hashes';
import { buildPaths, type SchemaRefs } from '../schema/openapi-operations';
import { serverVersion } from './version';

type Json = Record<string, unknown>;

/**
 * Custom resources' `openAPIV3Schema`, keyed by customSchemaKey(group, version, resource). Optional:
 * a custom ResourceInfo's own `openAPIV3Schema` is used when the map has no entry for it.
 */
export type CustomSchemas = ReadonlyMap<string, unknown>;

export function customSchemaKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** `api/v1` for core, `apis/<group>/<version>` otherwise: the index key and URL suffix. */
export function openApiGroupVersionPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export interface OpenApiService {
  /** Replace the served resources (and custom schemas); documents whose inputs changed are rebuilt on demand. */
  update(resources: readonly ResourceInfo[], customSchemas?: CustomSchemas): void;
  /** Body of `GET /openapi/v3`. */
  index(): string;
  /** Body of `GET /openapi/v3/<gvPath>` (`api/v1`, `apis/apps/v1`; query ignored), or undefined when not served. */
  document(gvPath: string): string | undefined;
}

const V2_PREFIX = '#/definitions/';
const V3_PREFIX = '#/components/schemas/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

// ---------------------------------------------------------------------------------------------
// Built-in component schemas: v2 definitions with `$ref`s rewritten, shared by all documents.

const rewrittenComponents = new Map<string, Json>();

function builtinComponent(name: string): Json | undefined {
  let component = rewrittenComponents.get(name);
  if (component === undefined) {
    const def = builtinDefinitions[name];
    if (!def) return undefined;
    component = JSON.parse(JSON.stringify(def).split(`"${V2_PREFIX}`).join(`"${V3_PREFIX}`)) as Json;
    rewrittenComponents.set(name, component);
  }
  return component;
}

let definitionByGvk: Map<string, string> | undefined;

/** Definition name of a built-in kind, found through `x-kubernetes-group-version-kind`. */
export function definitionOf(group: string, version: string, kind: string): string | undefined {
  if (!definitionByGvk) {
    definitionByGvk = new Map();
    for (const [name, def] of Object.entries(builtinDefinitions) as [string, SchemaNode][]) {
      for (const gvk of def['x-kubernetes-group-version-kind'] ?? []) {
        const key = `${gvk.group}/${gvk.version}/${gvk.kind}`;
        // Meta types (DeleteOptions, WatchEvent) claim a GVK in every group; real kinds win.
        if (!definitionByGvk.has(key) || definitionByGvk.get(key)!.startsWith('io.k8s.apimachinery.')) definitionByGvk.set(key, name);
      }
    }
  }
  return definitionByGvk.get(`${group}/${version}/${kind}`);
}

function collectRefs(node: unknown, into: string[]): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) collectRefs(n, into);
    return;
  }
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(V3_PREFIX)) into.push(value.slice(V3_PREFIX.length));
    else collectRefs(value, into);
  }
}

// ---------------------------------------------------------------------------------------------
// One document.

const ref = (name: string): Json => ({ $ref: `${V3_PREFIX}${name}` });

/** The schema name of a resource's kind (a built-in definition, or a CRD's component). */
export function kindName(r: ResourceInfo): string {
  if (r.custom) return customComponentName(r.group, r.version, r.kind);
  return r.definition ?? definitionOf(r.group, r.version, r.kind) ?? '';
}

/** The schema name of a resource's list kind, when there is one. */
export function listName(r: ResourceInfo): string | undefined {
  if (r.custom) return customComponentName(r.group, r.version, r.listKind);
  const name = kindName(r).replace(/[^.]+$/, r.listKind);
  return builtinDefinitions[name] ? name : undefined;
}

/** The schema name of what a subresource takes and answers (the parent's kind, Scale, ...). */
export function subresourceName(r: ResourceInfo, s: SubresourceInfo): string | undefined {
  const group = s.group ?? r.group;
  const version = s.version ?? r.version;
  if (group === r.group && version === r.version && s.kind === r.kind) return kindName(r);
  return definitionOf(group, version, s.kind);
}

/** How operations point at schemas (`ref` makes a v2 or a v3 reference from a schema name). */
export function schemaRefs(ref: (name: string) => Json): SchemaRefs {
  return {
    kind: (r, s) => {
      const name = s ? subresourceName(r, s) : kindName(r);
      return name ? ref(name) : { type: 'object' };
    },
    list: (r) => {
      const name = listName(r);
      return name ? ref(name) : { type: 'object' };
    },
    meta: (name) => ref(`${META}${name}`),
  };
}

function buildDocument(resources: readonly ResourceInfo[], customSchemas: CustomSchemas): string {
  const components: Record<string, Json> = {};
  const roots: string[] = [`${META}Status`, `${META}DeleteOptions`, `${META}Patch`, `${META}ListMeta`];


  for (const r of resources) {
    if (r.custom) {
      const schema = customSchemas.get(customSchemaKey(r.group, r.version, r.resource)) ?? r.openAPIV3Schema;
      components[kindName(r)] = customKindSchema(r, schema, V3_PREFIX);
      components[listName(r)!] = customListSchema(r, V3_PREFIX);
      roots.push(`${META}ObjectMeta`);
    } else if (kindName(r)) {
      roots.push(kindName(r));
      const list = listName(r);
      if (list) roots.push(list);
    }
    for (const s of r.subresources) {
      const name = subresourceName(r, s);
      if (name && !components[name]) roots.push(name);
    }
  }

  const refs = schemaRefs(ref);
  const paths = buildPaths(resources, refs);

  // Closure over $ref, starting from the roots and from everything custom schemas point at.
  const queue = [...roots];
  for (const component of Object.values(components)) collectRefs(component, queue);
  while (queue.length) {
    const name = queue.pop()!;
    if (components[name]) continue;
    const component = builtinComponent(name);
    if (!component) continue;
    components[name] = component;
    collectRefs(component, queue);
  }
  const schemas = Object.fromEntries(Object.keys(components).sort().map((k) => [k, components[k]]));

  return JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: serverVersion.gitVersion },
    paths,
    components: { schemas },
  });
}

// ---------------------------------------------------------------------------------------------
// The service: per-GV cache keyed by a signature of the document's inputs.

interface CachedDocument {
  signature: string;
  json: string;
  hash: string;
}

export function createOpenApiService(resources: readonly ResourceInfo[], customSchemas: CustomSchemas = new Map()): OpenApiService {
  let byGv = new Map<string, ResourceInfo[]>();
  let schemas: CustomSchemas = customSchemas;
  const cache = new Map<string, CachedDocument>();
  let cachedIndex: { signature: string; json: string } | undefined;

  function signatureOf(list: readonly ResourceInfo[]): string {
    return JSON.stringify(list.map((r) => [r, r.custom ? (schemas.get(customSchemaKey(r.group, r.version, r.resource)) ?? null) : null]));
  }

  function documentEntry(gvPath: string): CachedDocument | undefined {
    const list = byGv.get(gvPath);
    if (!list) return undefined;
    const signature = signatureOf(list);
    const cached = cache.get(gvPath);
    if (cached && cached.signature === signature) return cached;
    const json = buildDocument(list, schemas);
    const entry = { signature, json, hash: contentHash(json) };
    cache.set(gvPath, entry);
    return entry;
  }

  const service: OpenApiService = {
    update(next, nextSchemas = new Map()) {
      byGv = new Map();
      schemas = nextSchemas;
      for (const r of next) {
        const key = openApiGroupVersionPath(r.group, r.version);
        if (!byGv.has(key)) byGv.set(key, []);
        byGv.get(key)!.push(r);
      }
      for (const key of [...cache.keys()]) if (!byGv.has(key)) cache.delete(key);
    },
    index() {
      const entries = [...byGv.keys()].sort().map((gvPath) => [gvPath, documentEntry(gvPath)!.hash] as const);
      const signature = entries.map(([p, h]) => `${p}=${h}`).join(',');
      if (cachedIndex?.signature !== signature) {
        const paths = Object.fromEntries(entries.map(([gvPath, hash]) => [gvPath, { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${hash}` }]));
        cachedIndex = { signature, json: JSON.stringify({ paths }) };
      }
      return cachedIndex.json;
    },
    document(gvPath) {
      const clean = gvPath.split('?')[0].replace(/^\/?(openapi\/v3\/)?/, '').replace(/\/$/, '');
      return documentEntry(clean)?.json;
    },
  };
  service.update(resources, customSchemas);
  return service;
}
