// The OpenAPI v2 definition of a custom resource's kind, as kube-apiserver v1.23's CRD OpenAPI
// controller publishes it into /openapi/v2 (apiextensions builder with Options{V2: true}). v2
// cannot say "nullable", "anyOf" or "keep unknown fields", and kubectl (which validates and
// explains from v2) treats a typed node with properties as closed: so such nodes lose their type,
// properties or items rather than make kubectl refuse valid objects.
import type { ResourceInfo } from './resource-info';

type Json = Record<string, unknown>;

const OBJECT_META_REF = '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** Keys a structural schema keeps (in the order Go's spec.Schema writes them); everything else is dropped. */
const KEPT_KEYS = [
  'description',
  'type',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'items',
  'properties',
  'additionalProperties',
] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const hasOwn = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/**
 * One node of the user's schema, converted: junctors (allOf/oneOf/anyOf/not) and v3-only keys
 * dropped, nullable/preserve-unknown-fields nodes opened up for kubectl (ToStructuralOpenAPIV2),
 * embedded resources given apiVersion/kind/metadata.
 */
function convertNode(input: Json): Json {
  const nullable = input.nullable === true;
  const preserveUnknown = input['x-kubernetes-preserve-unknown-fields'] === true;
  let type = typeof input.type === 'string' ? input.type : undefined;
  let properties = isObject(input.properties) ? input.properties : undefined;
  let items = isObject(input.items) ? input.items : undefined;
  let required = Array.isArray(input.required) ? (input.required as unknown[]).filter((r): r is string => typeof r === 'string') : undefined;

  if (nullable) {
    type = undefined;
    items = undefined;
    properties = undefined;
  }
  if (preserveUnknown) {
    items = undefined;
    properties = undefined;
  }
  if (items === undefined && type === 'array') type = undefined;
  if (preserveUnknown && type === 'object') type = undefined;
  // A nullable property may be absent or null: kubectl must not require it.
  if (required && properties) {
    const props = properties;
    required = required.filter((name) => !(hasOwn(props, name) && isObject(props[name]) && (props[name] as Json).nullable === true));
  }
  if (isObject(input.additionalProperties) && input.additionalProperties.nullable === true) required = undefined;

  const out: Json = {};
  for (const key of KEPT_KEYS) {
    switch (key) {
      case 'type':
        if (type !== undefined) out.type = type;
        break;
      case 'required':
        if (required && required.length) out.required = required;
        break;
      case 'items':
        if (items) out.items = convertNode(items);
        break;
      case 'properties':
        if (properties) {
          // Entries, not assignment: a property may be named `__proto__`.
          const converted: [string, Json][] = [];
          for (const name of Object.keys(properties).sort()) {
            const child = properties[name];
            if (isObject(child)) converted.push([name, convertNode(child)]);
          }
          out.properties = Object.fromEntries(converted);
        }
        break;
      case 'additionalProperties': {
        const ap = input.additionalProperties;
        if (isObject(ap)) out.additionalProperties = convertNode(ap);
        else if (typeof ap === 'boolean') out.additionalProperties = ap;
        break;
      }
      default:
        if (hasOwn(input, key) && input[key] !== undefined) out[key] = input[key];
    }
  }
  for (const key of Object.keys(input).sort()) {
    if (key.startsWith('x-kubernetes-')) out[key] = input[key];
  }
  addEmbeddedProperties(out);
  return out;
}

/**
 * An embedded resource (`x-kubernetes-embedded-resource`) gets apiVersion, kind and metadata
 * and requires kind and apiVersion — unless it keeps unknown fields, where adding properties
 * would make kubectl refuse every other field.
 */
function addEmbeddedProperties(node: Json): void {
  if (node['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (node['x-kubernetes-embedded-resource'] !== true) return;
  const properties: Json = isObject(node.properties) ? { ...node.properties } : {};
  properties.apiVersion = { type: 'string' };
  properties.kind = { type: 'string' };
  properties.metadata = { $ref: OBJECT_META_REF };
  node.properties = Object.fromEntries(Object.keys(properties).sort().map((k) => [k, properties[k]]));
  const required = Array.isArray(node.required) ? [...(node.required as string[])] : [];
  if (!required.includes('kind')) required.push('kind');
  if (!required.includes('apiVersion')) required.push('apiVersion');
  node.required = required;
  reorder(node);
}

/** Puts `required` back before items/properties/additionalProperties after it was added late. */
function reorder(node: Json): void {
  const entries = Object.entries(node);
  const rank = (key: string) => {
    const i = (KEPT_KEYS as readonly string[]).indexOf(key);
    return i === -1 ? KEPT_KEYS.length : i;
  };
  entries.sort((a, b) => rank(a[0]) - rank(b[0]));
  for (const [key] of entries) delete node[key];
  for (const [key, value] of entries) node[key] = value;
}

/** The v2 definition of a custom kind (`#/definitions/<name>` refs). */
export function customKindSchemaV2(r: ResourceInfo, openAPIV3Schema: unknown): Json {
  const gvk = [{ group: r.group, kind: r.kind, version: r.version }];
  // No schema, or one that keeps every unknown field at the root: kubectl gets an open object
  // with nothing else, not even apiVersion/kind/metadata (it would refuse any other field).
  if (!isObject(openAPIV3Schema) || openAPIV3Schema['x-kubernetes-preserve-unknown-fields'] === true) {
    return { type: 'object', 'x-kubernetes-group-version-kind': gvk };
  }
  const out = convertNode(openAPIV3Schema);
  const properties: Json = isObject(out.properties) ? { ...out.properties } : {};
  properties.apiVersion = { type: 'string' };
  properties.kind = { type: 'string' };
  properties.metadata = { $ref: OBJECT_META_REF };
  out.properties = Object.fromEntries(Object.keys(properties).sort().map((k) => [k, properties[k]]));
  out['x-kubernetes-group-version-kind'] = gvk;
  reorder(out);
  return out;
}
