// A built-in object in the form kube-apiserver stores and answers it after decoding it into Go
// structs and marshalling it again, in one pass over the object:
//   - quantities canonical (resource.Quantity marshals its canonical string): `cpu: 0.5` reads
//     back as "500m", `memory: 1.5Gi` as "1536Mi", a JSON number as a string;
//   - empty maps and lists in optional fields left out (Go's omitempty): Helm charts and
//     client-side apply patches send many (`nodeSelector: {}`, `tolerations: []`);
//   - a null list item or map value is the element type's zero value (`containers: [null]` is
//     one empty Container, `[null]` of strings is `[""]`), as Go's decoder leaves it; validation
//     then reports it as kube does, and never meets a null where Go has a struct.
//
// Where each applies is worked out once per definition from the OpenAPI schemas: a tree of the
// property paths that lead to a quantity or to an optional map or list (required ones and the
// few lists Go declares without omitempty stay; structs such as `resources: {}` are not maps).
// Kinds with neither get no tree and cost nothing per write.
import { definitions, refName, type SchemaNode } from '../schema';
import { canonicalQuantityIfValid } from '../validation';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/** Optional lists declared without omitempty in the Go types: kube answers them even when empty (and `null` when absent). */
export const KEPT_WHEN_EMPTY = new Set([
  'io.k8s.api.rbac.v1.Role.rules',
  'io.k8s.api.rbac.v1.ClusterRole.rules',
  'io.k8s.api.discovery.v1.EndpointSlice.ports',
  'io.k8s.api.discovery.v1beta1.EndpointSlice.ports',
  'io.k8s.api.core.v1.ProjectedVolumeSource.sources',
  'io.k8s.api.core.v1.ContainerImage.names',
  'io.k8s.api.storage.v1.CSINodeDriver.topologyKeys',
  'io.k8s.api.storage.v1beta1.CSINodeDriver.topologyKeys',
]);

interface Field {
  /** Dropped when it is an empty map or list. */
  omitEmpty: boolean;
  /** What is inside, when anything below needs work. */
  node?: Node;
}

interface Node {
  /** A resource.Quantity. */
  quantity?: true;
  /** Struct fields. */
  fields?: Map<string, Field>;
  /** List items or map values. */
  each?: Node;
  /** The zero value a null list item or map value decodes to. */
  zero?: () => unknown;
}

/** The Go zero value of a list item or map value type, when Go has one that is not nil. */
function zeroOf(s: SchemaNode | undefined): (() => unknown) | undefined {
  if (!s) return undefined;
  const ref = refName(s);
  const target = ref === undefined ? s : definitions[ref];
  if (!target || ref === QUANTITY || target.format === 'int-or-string') return undefined;
  if (target.type === 'object' && target.properties) return () => ({});
  if (target.type === 'string') return target.format === 'byte' ? undefined : () => '';
  if (target.type === 'integer' || target.type === 'number') return () => 0;
  if (target.type === 'boolean') return () => false;
  return undefined;
}

/**
 * ObjectMeta's empty maps and lists are dropped here too, so that the field manager does not
 * record a client's `labels: {}` as a field it owns (Go's decoder leaves an empty map, and the
 * typed conversion behind managedFields skips it: omitempty). Its other fields are left to the
 * stored-text writer (orderedMetadata), and `managedFields` always: an update's `[]` means
 * "reset them" and must reach the field manager.
 */
const OBJECT_META_NODE: Node = { fields: new Map(['labels', 'annotations', 'ownerReferences', 'finalizers'].map((k) => [k, { omitEmpty: true }])) };
const nodes = new Map<string, Node | null>([['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', OBJECT_META_NODE]]);

const isCollection = (s: SchemaNode): boolean => s.type === 'array' || (s.type === 'object' && typeof s.additionalProperties === 'object');

function nodeOf(s: SchemaNode | undefined, visiting: Set<string>): Node | null {
  if (!s) return null;
  const ref = refName(s);
  if (ref !== undefined) return ref === QUANTITY ? { quantity: true } : definitionNode(ref, visiting);
  const inner = s.type === 'array' ? s.items : typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  const each = nodeOf(inner, visiting) ?? undefined;
  const zero = zeroOf(inner);
  return each || zero ? { each, zero } : null;
}

function definitionNode(name: string, visitingSoFar?: Set<string>): Node | null {
  const known = nodes.get(name);
  if (known !== undefined) return known;
  // Made here, not as a default parameter: that would build a Set on every (cached) lookup.
  const visiting = visitingSoFar ?? new Set<string>();
  const s = definitions[name];
  // Recursive schemas (CRD's JSONSchemaProps) are untyped JSON below their first level.
  if (!s?.properties || visiting.has(name)) return null;
  visiting.add(name);
  const required = new Set(s.required ?? []);
  const fields = new Map<string, Field>();
  for (const [key, prop] of Object.entries(s.properties)) {
    const omitEmpty = isCollection(prop) && !required.has(key) && !KEPT_WHEN_EMPTY.has(`${name}.${key}`);
    const node = nodeOf(prop, visiting) ?? undefined;
    if (omitEmpty || node) fields.set(key, { omitEmpty, node });
  }
  visiting.delete(name);
  const node = fields.size ? { fields } : null;
  nodes.set(name, node);
  return node;
}

function isEmptyCollection(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (v === null || typeof v !== 'object') return false;
  // The first own key answers: no key list built per map.
  for (const k in v) if (Object.hasOwn(v, k)) return false;
  return true;
}

interface Passes {
  quantities: boolean;
  omitEmpty: boolean;
}

function walk(value: unknown, node: Node, passes: Passes): unknown {
  if (node.quantity) {
    if (!passes.quantities || (typeof value !== 'string' && typeof value !== 'number')) return value;
    // A value that does not parse is left for validation to report.
    return canonicalQuantityIfValid(value) ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (node.each || node.zero) {
    // Lists by index (no key iterator per list), maps by their keys.
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) walkItem(value as unknown as Record<number, unknown>, i, node, passes);
    else for (const key of Object.keys(value)) walkItem(value as Record<string, unknown>, key, node, passes);
    return value;
  }
  if (!node.fields || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = node.fields.get(key);
    if (!field) continue;
    const v = record[key];
    if (passes.omitEmpty && field.omitEmpty && isEmptyCollection(v)) delete record[key];
    else if (field.node && v !== undefined) {
      const next = walk(v, field.node, passes);
      if (next !== v) record[key] = next;
    }
  }
  return value;
}

/** One item of a list or map: Go's zero value for a null, then the item's own walk. */
function walkItem(record: Record<string | number, unknown>, key: string | number, node: Node, passes: Passes): void {
  let item = record[key];
  if (item === null && node.zero) item = record[key] = node.zero();
  if (node.each) {
    // Written back only when it changed: most values are already in decoded form.
    const next = walk(item, node.each, passes);
    if (next !== item) record[key] = next;
  }
}

function run(definition: string | undefined, obj: Record<string, unknown>, passes: Passes): void {
  if (!definition) return;
  const node = definitionNode(definition);
  if (node) walk(obj, node, passes);
}

const BOTH: Passes = { quantities: true, omitEmpty: true };

/** Both, in place: the object of this definition as Go's decoding would leave it. */
export function toDecodedForm(definition: string | undefined, obj: Record<string, unknown>): void {
  run(definition, obj, BOTH);
}

/** Only the quantities, in place, in canonical form. */
export function canonicalizeQuantities(definition: string | undefined, obj: Record<string, unknown>): void {
  run(definition, obj, { quantities: true, omitEmpty: false });
}

/** Only the empty maps and lists Go would leave out, dropped in place. */
export function omitEmptyCollections(definition: string | undefined, obj: Record<string, unknown>): void {
  run(definition, obj, { quantities: false, omitEmpty: true });
}
