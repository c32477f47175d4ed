// What to offer at the cursor: the fields of the map the cursor is in (from the kind's schema),
// with their types and whether they are required; at the top of a document without a kind yet,
// apiVersion and kind themselves.
import { resolveSchema, schemaAt, typeName, type KindSchema } from './openapi-schema';
import type { PathStep } from './yaml-context';

export interface FieldSuggestion {
  name: string;
  type: string;
  required: boolean;
  description?: string;
  /** Whether the value goes on the following lines (a map or a list) rather than after the colon. */
  block: boolean;
}

export function fieldSuggestions(kind: KindSchema, path: readonly PathStep[]): FieldSuggestion[] {
  const node = schemaAt(kind.doc, kind.root, path);
  const required = new Set(node?.required ?? []);
  return Object.entries(node?.properties ?? {}).map(([name, prop]) => {
    const resolved = resolveSchema(kind.doc, prop);
    const type = typeName(kind.doc, prop);
    return {
      name,
      type,
      required: required.has(name),
      description: resolved?.description,
      block: !resolved?.['x-kubernetes-int-or-string'] && (resolved?.type === 'object' || resolved?.type === 'array' || Boolean(resolved?.properties)),
    };
  });
}

/** Markdown for a hover over a field: its path, type and description. */
export function fieldHover(kind: KindSchema, path: readonly PathStep[], key: string): string | undefined {
  const parent = schemaAt(kind.doc, kind.root, path);
  const prop = parent?.properties && Object.hasOwn(parent.properties, key) ? parent.properties[key] : undefined;
  if (!prop) return undefined;
  const resolved = resolveSchema(kind.doc, prop);
  const where = [...path.map((s) => (typeof s === 'number' ? '[]' : `.${s}`)), `.${key}`].join('').replace(/\.\[\]/g, '[]');
  const lines = [`**${where}** \`${typeName(kind.doc, prop)}\`${parent?.required?.includes(key) ? ' — required' : ''}`];
  if (resolved?.['x-kubernetes-list-type']) lines.push(`list type: ${resolved['x-kubernetes-list-type']}${resolved['x-kubernetes-list-map-keys'] ? ` (keys: ${resolved['x-kubernetes-list-map-keys'].join(', ')})` : ''}`);
  if (resolved?.enum) lines.push(`one of: ${resolved.enum.map((v) => `\`${String(v)}\``).join(', ')}`);
  if (resolved?.description) lines.push(resolved.description);
  return lines.join('\n\n');
}
