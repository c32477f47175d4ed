// The Swagger 2.0 document of `/openapi/v2`, as kube-apiserver v1.23 serves it: one document for
// every served group/version, the built-in definitions, and for every served custom resource
// version the definitions and paths kube's CRD OpenAPI controller merges in. kubectl 1.23–1.28
// validate, explain and compute client-side apply patches (x-kubernetes-patch-strategy) from it.
// An aggregated API whose APIService is available adds its own paths and definitions, as
// kube-aggregator merges the backend's spec in (metrics-server's metrics.k8s.io).
import type { ResourceInfo, SubresourceInfo } from '../schema/resource-info';
import { definitions as builtinDefinitions } from '../schema';
import { customListSchema } from '../schema/custom-schema';
import { customKindSchemaV2 } from '../schema/custom-schema-v2';
import { buildPaths } from '../schema/openapi-operations';
import { customSchemaKey, kindName, listName, schemaRefs, subresourceName, type CustomSchemas } from './openapi';
import { toV2Paths } from './openapi-v2-paths';
import { serverVersion } from './version';

type Json = Record<string, unknown>;

const PREFIX = '#/definitions/';
const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

const ref = (name: string): Json => ({ $ref: `${PREFIX}${name}` });

function collectRefs(node: unknown, into: string[]): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) collectRefs(n, into);
    return;
  }
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(PREFIX)) into.push(value.slice(PREFIX.length));
    else collectRefs(value, into);
  }
}

function sortedRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
}

/** What an aggregated backend publishes: its resources (each naming its `definition`) and their definitions. */
export interface AggregatedSpec {
  readonly resources: readonly ResourceInfo[];
  readonly definitions: Readonly<Record<string, unknown>>;
}

/** The JSON text of the whole v2 document for the given served resources. */
export function buildSwagger(resources: readonly ResourceInfo[], customSchemas: CustomSchemas, aggregated: readonly AggregatedSpec[] = []): string {
  const defs: Record<string, unknown> = {};
  const roots: string[] = [`${META}Status`, `${META}DeleteOptions`, `${META}Patch`, `${META}ListMeta`, `${META}ObjectMeta`];

  const refs = schemaRefs(ref);

  const paths: Record<string, Json> = {};
  for (const r of resources) {
    if (r.custom) {
      const schema = customSchemas.get(customSchemaKey(r.group, r.version, r.resource)) ?? r.openAPIV3Schema;
      defs[kindName(r)] = customKindSchemaV2(r, schema);
      defs[listName(r)!] = customListSchema(r, PREFIX);
    } else if (kindName(r)) {
      roots.push(kindName(r));
      const list = listName(r);
      if (list) roots.push(list);
    }
    for (const s of r.subresources) {
      const name = subresourceName(r, s);
      if (name && !defs[name]) roots.push(name);
    }
    Object.assign(paths, toV2Paths(buildPaths([r], refs), r.custom === true));
  }
  for (const api of aggregated) {
    Object.assign(defs, api.definitions);
    // The backend's kinds are not built-in definitions: point at its own list kinds by name.
    const listOf = (r: ResourceInfo): Json => ref(String(r.definition).replace(/[^.]+$/, r.listKind));
    const apiRefs = { ...refs, list: listOf };
    // Paths already served here win (kube-aggregator's merge ignores path conflicts).
    for (const [path, item] of Object.entries(toV2Paths(buildPaths(api.resources, apiRefs), false))) paths[path] ??= item;
  }

  // Closure over $ref from the roots and from everything the custom definitions point at.
  const queue = [...roots];
  for (const def of Object.values(defs)) collectRefs(def, queue);
  while (queue.length) {
    const name = queue.pop()!;
    if (defs[name]) continue;
    const def = builtinDefinitions[name];
    if (!def) continue;
    defs[name] = def;
    collectRefs(def, queue);
  }

  // Key order as Go's spec.Swagger writes it.
  return JSON.stringify({
    swagger: '2.0',
    info: { title: 'Kubernetes', version: serverVersion.gitVersion },
    paths: sortedRecord(paths),
    definitions: sortedRecord(defs),
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  });
}
