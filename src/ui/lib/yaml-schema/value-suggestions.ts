// Values to offer after `key: ` (or after `- ` in a list of scalars): the schema's enum, true/false
// for booleans, the known values of common v1.23 fields whose schema lists none, and from the
// cluster: apiVersions and kinds (kinds of the apiVersion written in the document) from discovery,
// and namespace names for `namespace` fields.
import { knownEnum } from './known-enums';
import { childSchema, definitionNameAt, schemaAt } from './openapi-schema';
import type { SchemaLookup } from './validate';
import type { PathStep, YamlContext } from './yaml-context';
import { groupVersion } from './yaml-context';

export interface ValueSuggestion {
  value: string;
  /** Where the value comes from, shown beside it. */
  detail: string;
}

/** The field whose value is at the cursor: a `key:` on the line, or the list of a `- ` item. */
function valueField(ctx: YamlContext): { field: string; parent: PathStep[]; listItem: boolean } | undefined {
  if (ctx.key !== undefined) return { field: ctx.key, parent: ctx.path, listItem: false };
  const n = ctx.path.length;
  const list = ctx.path[n - 2];
  if (typeof ctx.path[n - 1] === 'number' && typeof list === 'string') return { field: list, parent: ctx.path.slice(0, -2), listItem: true };
  return undefined;
}

const from = (values: readonly string[], detail: string): ValueSuggestion[] => values.map((value) => ({ value, detail }));

export async function valueSuggestions(ctx: YamlContext, lookup: SchemaLookup): Promise<ValueSuggestion[]> {
  const at = valueField(ctx);
  if (!at) return [];
  const { field, parent, listItem } = at;
  const catalog = lookup.values;
  if (!listItem && parent.length === 0 && (field === 'apiVersion' || field === 'kind')) {
    if (!catalog) return [];
    if (field === 'apiVersion') return from(await catalog.apiVersions(), 'served apiVersion');
    return from(await catalog.kinds(ctx.apiVersion), ctx.apiVersion ? `kind in ${ctx.apiVersion}` : 'served kind');
  }

  const schema = ctx.apiVersion && ctx.kind ? await lookup(groupVersion(ctx.apiVersion).group, groupVersion(ctx.apiVersion).version, ctx.kind) : undefined;
  const parentNode = schema && schemaAt(schema.doc, schema.root, parent);
  let node = schema && childSchema(schema.doc, parentNode, field);
  if (schema && node && listItem) node = node.type === 'array' ? childSchema(schema.doc, node, 0) : undefined;
  if (field === 'namespace' && !listItem && catalog && (!node || node.type === 'string')) return from(await catalog.namespaces(), 'namespace');
  if (!schema || !node) return [];
  if (node.enum?.length) return from(node.enum.map(String), 'enum');
  if (node.type === 'boolean') return from(['true', 'false'], 'boolean');
  if (node.type !== 'string') return [];
  const definition = definitionNameAt(schema.doc, schema.root, parent);
  const known = knownEnum(definition, field);
  return known ? from(known, `${definition!.slice(definition!.lastIndexOf('.') + 1)}.${field}`) : [];
}
