// Quantities in their canonical form, as kube-apiserver stores and returns them: a
// resource.Quantity is decoded into Go and marshalled again, so `cpu: 0.5` reads back as "500m",
// `memory: 1.5Gi` as "1536Mi" and `cpu: 1` (a JSON number) as "1".
//
// Where a kind has quantities is worked out once per definition from the OpenAPI schemas: a tree
// of the property paths that lead to one (`*` for list items and map values). Kinds without any
// (ConfigMaps, Secrets, most of them) get no tree and cost nothing per write.
import { definitions, refName, type SchemaNode } from '../schema';
import { canonicalQuantity, parseQuantity } from './validation';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const ANY = '*';

/** A quantity here (true), or the children that lead to one. */
type QuantityTree = true | Map<string, QuantityTree>;

const trees = new Map<string, QuantityTree | null>();

function treeOfNode(node: SchemaNode | undefined, visiting: Set<string>): QuantityTree | null {
  if (!node) return null;
  const ref = refName(node);
  if (ref !== undefined) return ref === QUANTITY ? true : treeOfDefinition(ref, visiting);
  const children = new Map<string, QuantityTree>();
  for (const [key, prop] of Object.entries(node.properties ?? {})) {
    const t = treeOfNode(prop, visiting);
    if (t) children.set(key, t);
  }
  const items = node.items ? treeOfNode(node.items, visiting) : null;
  const values = typeof node.additionalProperties === 'object' ? treeOfNode(node.additionalProperties, visiting) : null;
  const nested = items ?? values;
  if (nested) children.set(ANY, nested);
  return children.size ? children : null;
}

/** The tree of a definition, or null when no quantity is reachable from it (recursive schemas have none). */
function treeOfDefinition(name: string, visiting = new Set<string>()): QuantityTree | null {
  const known = trees.get(name);
  if (known !== undefined) return known;
  if (visiting.has(name)) return null;
  visiting.add(name);
  const tree = treeOfNode(definitions[name], visiting);
  visiting.delete(name);
  // Only a finished walk is remembered (inside a cycle a definition's tree may be partial).
  if (visiting.size === 0 || tree) trees.set(name, tree);
  return tree;
}

function canonicalize(value: unknown, tree: QuantityTree): unknown {
  if (tree === true) {
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    // A value that does not parse is left for validation to report.
    return parseQuantity(value) ? canonicalQuantity(value) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = tree.get(ANY);
    if (items) for (let i = 0; i < value.length; i++) value[i] = canonicalize(value[i], items);
    return value;
  }
  const record = value as Record<string, unknown>;
  const values = tree.get(ANY);
  for (const key of Object.keys(record)) {
    const sub = tree.get(key) ?? values;
    if (sub && record[key] !== undefined) record[key] = canonicalize(record[key], sub);
  }
  return value;
}

/** Rewrites, in place, every quantity of an object of the given definition in canonical form. */
export function canonicalizeQuantities(definition: string | undefined, obj: Record<string, unknown>): void {
  if (!definition) return;
  const tree = treeOfDefinition(definition);
  if (tree) canonicalize(obj, tree);
}
