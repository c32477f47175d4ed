// Reading the server's OpenAPI v3 documents (`/openapi/v3/apis/<group>/<version>`) as schemas for
// the YAML editor: the schema of a kind (by x-kubernetes-group-version-kind), the schema at a path
// inside it, and a short type name for hovers ("integer (int32)", "[]Container", "map[string]string").
export interface SchemaNode {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  required?: string[];
  enum?: unknown[];
  $ref?: string;
  allOf?: SchemaNode[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-group-version-kind'?: Array<{ group?: string; version?: string; kind?: string }>;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}

export interface OpenApiDoc {
  components?: { schemas?: Record<string, SchemaNode> };
}

/** A schema inside its document (needed to follow `$ref`s). */
export interface KindSchema {
  doc: OpenApiDoc;
  root: SchemaNode;
}

const REF_PREFIX = '#/components/schemas/';

/** Follows `$ref` and the `allOf: [{$ref}]` wrapper v3 uses to attach a description or default. */
export function resolveSchema(doc: OpenApiDoc, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  let description = node?.description;
  for (let hops = 0; current && hops < 32; hops++) {
    const ref = current.$ref ?? (current.allOf?.length === 1 && !current.properties ? current.allOf[0]!.$ref : undefined);
    if (!ref) break;
    description ??= current.description;
    current = ref.startsWith(REF_PREFIX) ? doc.components?.schemas?.[ref.slice(REF_PREFIX.length)] : undefined;
  }
  if (!current) return undefined;
  return description && !current.description ? { ...current, description } : current;
}

/** The schema name a node refers to, e.g. `io.k8s.api.core.v1.Container` → `Container`. */
function refName(node: SchemaNode | undefined): string | undefined {
  const ref = node?.$ref ?? (node?.allOf?.length === 1 ? node.allOf[0]!.$ref : undefined);
  return ref?.slice(ref.lastIndexOf('.') + 1);
}

export function findKindSchema(doc: OpenApiDoc, group: string, version: string, kind: string): SchemaNode | undefined {
  for (const schema of Object.values(doc.components?.schemas ?? {})) {
    const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
    if (gvks.some((g) => (g.group ?? '') === group && g.version === version && g.kind === kind)) return schema;
  }
  return undefined;
}

/** Whether a map accepts keys its schema does not list. */
export function allowsUnknownFields(node: SchemaNode): boolean {
  return Boolean(node['x-kubernetes-preserve-unknown-fields'] || node.additionalProperties || (!node.properties && (node.type === 'object' || !node.type)));
}

/** One step down, as written (a `$ref` stays a `$ref`, so its name can still be shown). */
export function rawChildSchema(doc: OpenApiDoc, node: SchemaNode | undefined, step: string | number): SchemaNode | undefined {
  const resolved = resolveSchema(doc, node);
  if (!resolved) return undefined;
  if (typeof step === 'number') return resolved.items;
  // Own properties only: a key typed as `toString` is an unknown field, not Object.prototype's.
  const prop = resolved.properties && Object.hasOwn(resolved.properties, step) ? resolved.properties[step] : undefined;
  if (prop) return prop;
  if (resolved.additionalProperties && typeof resolved.additionalProperties === 'object') return resolved.additionalProperties;
  return undefined;
}

/** One step down: a property, a map value (additionalProperties) or a list item. */
export function childSchema(doc: OpenApiDoc, node: SchemaNode | undefined, step: string | number): SchemaNode | undefined {
  return resolveSchema(doc, rawChildSchema(doc, node, step));
}

export function schemaAt(doc: OpenApiDoc, root: SchemaNode, path: ReadonlyArray<string | number>): SchemaNode | undefined {
  let node: SchemaNode | undefined = resolveSchema(doc, root);
  for (const step of path) {
    node = childSchema(doc, node, step);
    if (!node) return undefined;
  }
  return node;
}

/** A Go-flavoured type name, as `kubectl explain` prints them. */
export function typeName(doc: OpenApiDoc, node: SchemaNode | undefined): string {
  const resolved = resolveSchema(doc, node);
  if (!resolved) return 'unknown';
  if (resolved['x-kubernetes-int-or-string']) return 'IntOrString';
  if (resolved.type === 'array') return `[]${typeName(doc, resolved.items)}`;
  if (resolved.type === 'object' || resolved.properties) {
    if (resolved.additionalProperties && typeof resolved.additionalProperties === 'object') return `map[string]${typeName(doc, resolved.additionalProperties)}`;
    return refName(node) ?? 'Object';
  }
  if (!resolved.type) return refName(node) ?? 'Object';
  return resolved.format ? `${resolved.type} (${resolved.format})` : resolved.type;
}

/** The full `$ref` target a node points at, e.g. `io.k8s.api.core.v1.Container`. */
function refTarget(node: SchemaNode | undefined): string | undefined {
  const ref = node?.$ref ?? (node?.allOf?.length === 1 ? node.allOf[0]!.$ref : undefined);
  return ref?.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

/**
 * The definition name of the schema at a path (`io.k8s.api.core.v1.Container` for a Deployment's
 * `spec.template.spec.containers[0]`), or undefined where the schema is written inline (CRDs).
 */
export function definitionNameAt(doc: OpenApiDoc, root: SchemaNode, path: ReadonlyArray<string | number>): string | undefined {
  const schemas = doc.components?.schemas ?? {};
  let name = refTarget(root) ?? Object.keys(schemas).find((k) => schemas[k] === root);
  let node: SchemaNode | undefined = root;
  for (const step of path) {
    node = rawChildSchema(doc, node, step);
    if (!node) return undefined;
    name = refTarget(node);
  }
  return name;
}
