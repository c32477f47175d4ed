// The built-in schema set and resource catalog of kube-apiserver v1.23, generated from OpenAPI
// data by scripts/gen-resources.mjs (see generated/). Everything here is read-only at run time.
import type { ResourceInfo } from './resource-info';
import definitionsJson from './generated/definitions.json';
import resourcesJson from './generated/resources.json';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** An OpenAPI v2 schema node with only the structural keys kept by the generator. */
export interface SchemaNode {
  type?: string;
  format?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  /** `#/definitions/<name>`. */
  $ref?: string;
  required?: string[];
  enum?: unknown[];
  'x-kubernetes-group-version-kind'?: GroupVersionKind[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  [extension: `x-kubernetes-${string}`]: unknown;
}

// The JSON files are typed loosely on purpose: letting TypeScript infer a type for 200 KB of
// schemas would slow every compile for no benefit.
export const definitions: Record<string, SchemaNode> = definitionsJson as unknown as Record<string, SchemaNode>;
export const builtinResources: readonly ResourceInfo[] = resourcesJson as unknown as ResourceInfo[];

const REF_PREFIX = '#/definitions/';

/** The definition name a `$ref` points to (`io.k8s.api.core.v1.Pod`), or undefined. */
export function refName(node: SchemaNode): string | undefined {
  return typeof node.$ref === 'string' && node.$ref.startsWith(REF_PREFIX) ? node.$ref.slice(REF_PREFIX.length) : undefined;
}

/** Follows `$ref` chains to the referenced definition; nodes without a `$ref` come back as they are. */
export function resolveRef(node: SchemaNode, defs: Record<string, SchemaNode> = definitions): SchemaNode {
  let current = node;
  for (let hops = 0; hops < 16; hops++) {
    const name = refName(current);
    if (name === undefined) return current;
    const target = defs[name];
    if (!target) throw new Error(`unknown schema definition ${name}`);
    current = target;
  }
  throw new Error(`$ref chain too long at ${node.$ref}`);
}

const byGvr = new Map<string, ResourceInfo>(builtinResources.map((r) => [`${r.group}/${r.version}/${r.resource}`, r]));

/** The built-in resource served at group/version/resource (group '' = core), if any. */
export function findResource(group: string, version: string, resource: string): ResourceInfo | undefined {
  return byGvr.get(`${group}/${version}/${resource}`);
}
