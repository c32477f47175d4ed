// Path elements of structured-merge-diff (fieldpath.PathElement): a struct field or map key
// (`f:name`), a list-map item identified by its key fields (`k:{"name":"c"}`), a set item
// (`v:"x"`) or an atomic-list index (`i:0`). `id` is the element's fieldsV1 spelling and doubles
// as its identity, so elements can key JS maps.
import { compareValues, goJson, type JsonValue, valueToString } from './value';
import { sortInPlace } from '../codec/sort-in-place';

export type PathElement =
  | { readonly kind: 'field'; readonly name: string; readonly id: string; /** `id` as a JSON string, for fieldsV1 text. */ readonly quoted: string }
  | { readonly kind: 'key'; readonly fields: ReadonlyArray<readonly [string, JsonValue]>; readonly id: string }
  | { readonly kind: 'value'; readonly value: JsonValue; readonly id: string }
  | { readonly kind: 'index'; readonly index: number; readonly id: string };

export type Path = readonly PathElement[];

// Field names repeat endlessly across objects; interning their elements saves allocations.
const fieldCache = new Map<string, PathElement>();

export function fieldElement(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (!pe) {
    const id = `f:${name}`;
    pe = { kind: 'field', name, id, quoted: JSON.stringify(id) };
    if (fieldCache.size < 50_000) fieldCache.set(name, pe);
  }
  return pe;
}

/**
 * A list-map item element; the key fields are sorted by name as kube sorts them. `fields` (a
 * fresh list: both callers build one) is sorted in place and kept by the element.
 */
export function keyElement(fields: Array<[string, JsonValue]>): PathElement {
  if (fields.length > 1) sortInPlace(fields, byFieldName);
  let body = '';
  for (let i = 0; i < fields.length; i++) body += `${i > 0 ? ',' : ''}${goJson(fields[i]![0])}:${goJson(fields[i]![1])}`;
  return { kind: 'key', fields, id: `k:{${body}}` };
}

function byFieldName(a: [string, JsonValue], b: [string, JsonValue]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

export function valueElement(value: JsonValue): PathElement {
  return { kind: 'value', value, id: `v:${goJson(value)}` };
}

export function indexElement(index: number): PathElement {
  return { kind: 'index', index, id: `i:${index}` };
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** The ordering kube uses when it writes a set: fields, then keys, values, indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  switch (a.kind) {
    case 'field': {
      const bn = (b as typeof a).name;
      return a.name < bn ? -1 : a.name > bn ? 1 : 0;
    }
    case 'key': {
      const bf = (b as typeof a).fields;
      for (let i = 0; i < a.fields.length && i < bf.length; i++) {
        const [an, av] = a.fields[i]!;
        const [bn, bv] = bf[i]!;
        if (an !== bn) return an < bn ? -1 : 1;
        const c = compareValues(av, bv);
        if (c !== 0) return c;
      }
      return a.fields.length - bf.length;
    }
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
  }
}

/** How kube prints an element inside a path: `.name`, `[name="c"]`, `[="x"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map(([k, v]) => `${k}=${valueToString(v)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** A whole path as kube prints it in conflicts: `.spec.containers[name="c"].image`. */
export function pathString(path: Path): string {
  return path.map(pathElementString).join('');
}

/** Parses one fieldsV1 key (`f:x`, `k:{...}`, `v:...`, `i:0`); throws on anything else. */
export function parsePathElement(id: string): PathElement {
  const body = id.slice(2);
  switch (id.slice(0, 2)) {
    case 'f:':
      return fieldElement(body);
    case 'v:':
      return valueElement(JSON.parse(body) as JsonValue);
    case 'i:': {
      if (!/^-?\d+$/.test(body)) break;
      return indexElement(Number(body));
    }
    case 'k:': {
      const parsed = JSON.parse(body) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) break;
      return keyElement(Object.entries(parsed as Record<string, JsonValue>));
    }
  }
  throw new Error(`unknown path element type: ${JSON.stringify(id)}`);
}
