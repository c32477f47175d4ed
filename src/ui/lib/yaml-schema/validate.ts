// Checks every document of a multi-document YAML text against the kind's schema: YAML syntax
// errors, fields the schema does not know (where it lists its fields), and values of the wrong
// shape (a string where an integer goes, a scalar where a map or list goes). Offsets are
// character offsets into the whole text, for the editor to turn into markers.
import { isMap, isScalar, isSeq, parseAllDocuments, type Node as YamlNode } from 'yaml';
import { allowsUnknownFields, rawChildSchema, resolveSchema, typeName, type KindSchema, type SchemaNode } from './openapi-schema';
import type { ValueCatalog } from './value-catalog';
import { groupVersion } from './yaml-context';

export interface Problem {
  start: number;
  end: number;
  message: string;
  severity: 'error' | 'warning';
}

/**
 * Finds the schema for a document's apiVersion and kind; undefined when there is none. A lookup
 * made for a live API also carries the values it can offer beyond the schema (apiVersions, kinds,
 * namespaces).
 */
export interface SchemaLookup {
  (group: string, version: string, kind: string): Promise<KindSchema | undefined>;
  values?: ValueCatalog;
}

function span(node: YamlNode | null | undefined, fallback: [number, number]): [number, number] {
  const r = node?.range;
  return r ? [r[0], r[1]] : fallback;
}

function shapeProblem(doc: KindSchema['doc'], schema: SchemaNode, node: YamlNode, written: SchemaNode): string | undefined {
  const expected = schema.type;
  if (!expected || schema['x-kubernetes-int-or-string'] || schema['x-kubernetes-preserve-unknown-fields']) return undefined;
  const got = isMap(node) ? 'object' : isSeq(node) ? 'array' : isScalar(node) ? (node.value === null ? 'null' : typeof node.value) : 'unknown';
  if (got === 'null' || got === 'unknown') return undefined; // null clears a field; aliases etc. are left alone
  const ok =
    expected === 'object' ? got === 'object' :
    expected === 'array' ? got === 'array' :
    expected === 'integer' ? got === 'number' && Number.isInteger((node as { value: number }).value) :
    expected === 'number' ? got === 'number' :
    expected === 'boolean' ? got === 'boolean' :
    expected === 'string' ? got === 'string' || (got === 'number' && schema.format === 'date-time') : true;
  if (ok) return undefined;
  const shown = got === 'object' ? 'a map' : got === 'array' ? 'a list' : `${got} ${JSON.stringify((node as { value: unknown }).value)}`;
  return `expected ${typeName(doc, written)}, got ${shown}`;
}

function walk(kind: KindSchema, schema: SchemaNode, node: YamlNode, path: string, out: Problem[]): void {
  const resolved = resolveSchema(kind.doc, schema);
  if (!resolved) return;
  const [start, end] = span(node, [0, 0]);
  const shape = shapeProblem(kind.doc, resolved, node, schema);
  if (shape) {
    out.push({ start, end, message: `${path || 'document'}: ${shape}`, severity: 'error' });
    return;
  }
  if (isMap(node)) {
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      const key = isScalar(keyNode) ? String(keyNode.value) : undefined;
      if (key === undefined) continue;
      const child = rawChildSchema(kind.doc, resolved, key);
      if (!child) {
        if (!allowsUnknownFields(resolved)) {
          const [ks, ke] = span(keyNode, [start, end]);
          out.push({ start: ks, end: ke, message: `unknown field "${path ? `${path}.` : ''}${key}" (${typeName(kind.doc, schema)} has no such field)`, severity: 'error' });
        }
        continue;
      }
      if (pair.value) walk(kind, child, pair.value as YamlNode, path ? `${path}.${key}` : key, out);
    }
  } else if (isSeq(node)) {
    const item = rawChildSchema(kind.doc, resolved, 0);
    if (item) node.items.forEach((v, i) => v && walk(kind, item, v as YamlNode, `${path}[${i}]`, out));
  }
}

export async function validateYaml(text: string, lookup: SchemaLookup): Promise<Problem[]> {
  const out: Problem[] = [];
  const parsed = parseAllDocuments(text);
  const docs = Array.isArray(parsed) ? parsed : [];
  for (const doc of docs) {
    for (const e of doc.errors) out.push({ start: e.pos[0], end: Math.max(e.pos[1], e.pos[0] + 1), message: e.message.split('\n')[0]!, severity: 'error' });
    for (const w of doc.warnings) out.push({ start: w.pos[0], end: Math.max(w.pos[1], w.pos[0] + 1), message: w.message.split('\n')[0]!, severity: 'warning' });
    if (doc.errors.length || !isMap(doc.contents)) continue;
    const apiVersion = doc.get('apiVersion');
    const kind = doc.get('kind');
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') continue;
    const { group, version } = groupVersion(apiVersion);
    const schema = await lookup(group, version, kind);
    const [start, end] = span(doc.contents, [0, 0]);
    if (!schema) {
      out.push({ start, end: Math.min(end, start + 1), message: `the server has no schema for kind ${kind} in ${apiVersion}`, severity: 'warning' });
      continue;
    }
    walk(schema, schema.root, doc.contents, '', out);
  }
  return out;
}
