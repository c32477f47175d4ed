// Empty maps and lists in optional fields left out, as kube-apiserver stores and answers built-in
// objects: it decodes them into Go structs, and Go's `omitempty` drops an empty map or slice when
// it marshals them again. Helm charts and client-side apply patches send many (`nodeSelector: {}`,
// `tolerations: []`, `annotations: {}`); a real server never shows them.
//
// Which fields: the OpenAPI schemas say which properties are maps (additionalProperties) or lists
// and which are required. Optional ones carry omitempty in the Go types, with the few exceptions
// below. Structs (`resources: {}`, `securityContext: {}`) are not maps and stay.
import { definitions, refName, type SchemaNode } from '../schema';

/** Optional lists declared without omitempty in the Go types: kube answers them even when empty. */
const KEPT_WHEN_EMPTY = new Set([
  'io.k8s.api.rbac.v1.Role.rules',
  'io.k8s.api.rbac.v1.ClusterRole.rules',
  'io.k8s.api.discovery.v1.EndpointSlice.ports',
  'io.k8s.api.discovery.v1beta1.EndpointSlice.ports',
]);

interface Field {
  /** Dropped when it is an empty map or list. */
  omitEmpty: boolean;
  /** What is inside (struct fields, or list items / map values), when anything below can be dropped. */
  inner?: Node;
}

interface Node {
  fields?: Map<string, Field>;
  /** List items or map values. */
  each?: Node;
}

/**
 * ObjectMeta is left to the stored-text writer (orderedMetadata drops its empty fields), because
 * an update's `managedFields: []` means "reset them" and must reach the field manager.
 */
const nodes = new Map<string, Node | null>([['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', null]]);

const isCollection = (s: SchemaNode): boolean => s.type === 'array' || (s.type === 'object' && typeof s.additionalProperties === 'object');

function nodeOf(s: SchemaNode | undefined, visiting: Set<string>): Node | null {
  if (!s) return null;
  const ref = refName(s);
  if (ref !== undefined) return definitionNode(ref, visiting);
  if (s.type === 'array') {
    const each = nodeOf(s.items, visiting);
    return each ? { each } : null;
  }
  if (typeof s.additionalProperties === 'object') {
    const each = nodeOf(s.additionalProperties, visiting);
    return each ? { each } : null;
  }
  return null;
}

function structNode(name: string, s: SchemaNode, visiting: Set<string>): Node | null {
  const required = new Set(s.required ?? []);
  const fields = new Map<string, Field>();
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const omitEmpty = isCollection(prop) && !required.has(key) && !KEPT_WHEN_EMPTY.has(`${name}.${key}`);
    const inner = nodeOf(prop, visiting) ?? undefined;
    if (omitEmpty || inner) fields.set(key, { omitEmpty, inner });
  }
  return fields.size ? { fields } : null;
}

function definitionNode(name: string, visiting = new Set<string>()): Node | null {
  const known = nodes.get(name);
  if (known !== undefined) return known;
  const s = definitions[name];
  // Recursive schemas (CRD's JSONSchemaProps) are untyped JSON: left as they are.
  if (!s?.properties || visiting.has(name)) return null;
  visiting.add(name);
  const node = structNode(name, s, visiting);
  visiting.delete(name);
  nodes.set(name, node);
  return node;
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  return v !== null && typeof v === 'object' && Object.keys(v).length === 0;
}

function prune(value: unknown, node: Node): void {
  if (value === null || typeof value !== 'object') return;
  if (node.each) {
    const inner = node.each;
    if (Array.isArray(value)) for (const item of value) prune(item, inner);
    else for (const key in value as Record<string, unknown>) prune((value as Record<string, unknown>)[key], inner);
    return;
  }
  if (!node.fields || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = node.fields.get(key);
    if (!field) continue;
    const v = record[key];
    if (field.omitEmpty && isEmptyCollection(v)) delete record[key];
    else if (field.inner) prune(v, field.inner);
  }
}

/** Drops, in place, the empty maps and lists Go would leave out of an object of this definition. */
export function omitEmptyCollections(definition: string | undefined, obj: Record<string, unknown>): void {
  if (!definition) return;
  const node = definitionNode(definition);
  if (node) prune(obj, node);
}
