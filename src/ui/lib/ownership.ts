// Field ownership made visible: the object as YAML plus, for every line of that YAML, who owns the
// field written on it (from metadata.managedFields, fieldsV1 format), a legend of managers with
// stable colours, and the inverse mapping from kube's conflict paths
// (`.spec.containers[name="c"].image`) to the lines to mark.
//
// fieldsV1 recap: `f:<name>` a field or map key, `k:{json}` a list-map item picked by its key
// fields, `v:<json>` a set item, `i:<n>` an atomic-list index, `.` the enclosing map/item itself,
// and an empty `{}` child a leaf. A leaf whose value is a map or list (an atomic field) owns
// everything beneath it.
import { childKey, type PathKey, yamlWithLines } from './yaml-lines';
import { colourForManagers, type LegendEntry } from './manager-colours';

export type { LegendEntry } from './manager-colours';

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: FieldsV1;
  subresource?: string;
}

export interface FieldsV1 {
  [key: string]: FieldsV1;
}

export interface FieldOwner {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource: string;
  time: string;
}

export interface OwnedLine {
  /** 1-based, as editors number lines. */
  line: number;
  /** kube-style paths of the fields that start on this line (a list item and its first field share one). */
  paths: string[];
  owners: FieldOwner[];
}

export interface OwnershipView {
  yaml: string;
  /** lines[i] describes line i + 1 of `yaml`. */
  lines: OwnedLine[];
  legend: LegendEntry[];
  /** kube-style path → every line the field spans (its key line through the end of its value). */
  pathLines: Map<string, number[]>;
}

export interface OwnershipOptions {
  /** Show metadata.managedFields in the YAML (the raw-entries toggle); hidden by default. */
  showManagedFields?: boolean;
}

type Json = unknown;

/** Keys sorted at every level, as `kubectl get -o yaml` prints them (it sorts map keys). */
export function sortKeysDeep(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    // Entries, not assignments: a key named `__proto__` must stay a key.
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeysDeep((value as Record<string, Json>)[k])]));
  }
  return value;
}

/** The object as YAML in a stable layout: sorted keys, kubectl-style unindented lists, no folding. */
export function toStableYaml(obj: Json, options: OwnershipOptions = {}): string {
  return yamlWithLines(sortKeysDeep(options.showManagedFields ? obj : withoutManagedFields(obj))).text;
}

function withoutManagedFields(obj: Json): Json {
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return obj;
  const o = obj as Record<string, Json>;
  const meta = o.metadata;
  if (meta === null || typeof meta !== 'object' || !('managedFields' in meta)) return obj;
  const { managedFields: _dropped, ...rest } = meta as Record<string, Json>;
  return { ...o, metadata: rest };
}

function ownerOf(e: ManagedFieldsEntry): FieldOwner {
  return { manager: e.manager ?? '', operation: e.operation ?? '', apiVersion: e.apiVersion ?? '', subresource: e.subresource ?? '', time: e.time ?? '' };
}

function deepEqual(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as Json[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object);
  const bo = b as Record<string, Json>;
  return ak.length === Object.keys(bo).length && ak.every((k) => Object.hasOwn(bo, k) && deepEqual((a as Record<string, Json>)[k], bo[k]));
}

/** Which item of a list a fieldsV1 element names, or -1 when the live list has no such item. */
function findListItem(element: string, list: Json): number {
  if (!Array.isArray(list)) return -1;
  const body = element.slice(2);
  if (element.startsWith('i:')) {
    const i = Number(body);
    return Number.isInteger(i) && i >= 0 && i < list.length ? i : -1;
  }
  let parsed: Json;
  try {
    parsed = JSON.parse(body);
  } catch {
    return -1;
  }
  if (element.startsWith('v:')) return list.findIndex((item) => deepEqual(item, parsed));
  const key = parsed as Record<string, Json>;
  return list.findIndex((item) => item !== null && typeof item === 'object' && Object.keys(key).every((k) => Object.hasOwn(item, k) && deepEqual((item as Record<string, Json>)[k], key[k])));
}

/** How kube prints a list element: `[name="c"]` for keys (sorted by name), `[="x"]` for set values, `[0]`. */
function elementLabel(element: string): string {
  const body = element.slice(2);
  if (element.startsWith('i:')) return `[${body}]`;
  try {
    const parsed = JSON.parse(body) as Json;
    if (element.startsWith('v:')) return `[=${goString(parsed)}]`;
    const key = parsed as Record<string, Json>;
    return `[${Object.keys(key).sort().map((k) => `${k}=${goString(key[k])}`).join(',')}]`;
  } catch {
    return `[${body}]`;
  }
}

/** structured-merge-diff's value.ToString: strings quoted, maps as {k=v}. */
function goString(v: Json): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(goString).join(',')}]`;
  if (typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${k}=${goString(x)}`).join(',')}}`;
  return String(v);
}

interface Claims {
  /** Owners of the node itself (its line). */
  direct: Map<string, FieldOwner[]>;
  /** Owners of a whole subtree (a leaf on a map or list value). */
  subtree: Map<string, FieldOwner[]>;
  /** JS path of a list item → how kube names it, learned from the fieldsV1 elements. */
  labels: Map<string, string>;
  /** One owner per managedFields entry, in entry order. */
  owners: FieldOwner[];
}

/** Paths are keyed as yaml-lines keys them (the JSON of the JS path), built child by child. */
const ROOT: PathKey = '[]';

function addClaim(map: Map<string, FieldOwner[]>, k: PathKey, owner: FieldOwner): void {
  const list = map.get(k);
  if (!list) map.set(k, [owner]);
  else if (!list.includes(owner)) list.push(owner);
}

/** Walks one manager's fieldsV1 alongside the live value, recording what it owns by JS path. */
function claim(set: FieldsV1, value: Json, path: PathKey, owner: FieldOwner, claims: Claims): void {
  for (const [element, child] of Object.entries(set)) {
    if (element === '.') {
      addClaim(claims.direct, path, owner);
      continue;
    }
    let childPath: PathKey;
    let childValue: Json;
    if (element.startsWith('f:')) {
      const name = element.slice(2);
      childValue = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, name) ? (value as Record<string, Json>)[name] : undefined;
      if (childValue === undefined) continue; // owned but absent from the live object: no line to mark
      childPath = childKey(path, name);
    } else {
      const index = findListItem(element, value);
      if (index < 0) continue;
      childPath = childKey(path, index);
      childValue = (value as Json[])[index];
      claims.labels.set(childPath, elementLabel(element));
    }
    const isLeaf = child === null || typeof child !== 'object' || Object.keys(child).length === 0;
    if (isLeaf) {
      addClaim(claims.direct, childPath, owner);
      if (childValue !== null && typeof childValue === 'object') addClaim(claims.subtree, childPath, owner);
    } else {
      claim(child, childValue, childPath, owner, claims);
    }
  }
}

function collectClaims(entries: ManagedFieldsEntry[], obj: Json): Claims {
  const claims: Claims = { direct: new Map(), subtree: new Map(), labels: new Map(), owners: [] };
  for (const entry of entries) {
    const owner = ownerOf(entry);
    claims.owners.push(owner);
    if (entry.fieldsType && entry.fieldsType !== 'FieldsV1') continue;
    if (entry.fieldsV1) claim(entry.fieldsV1, obj, ROOT, owner, claims);
  }
  return claims;
}

/** Builds the ownership view of an object from its own metadata.managedFields. */
export function ownershipView(obj: Json, options: OwnershipOptions = {}): OwnershipView {
  const meta = (obj as { metadata?: { managedFields?: ManagedFieldsEntry[] } } | null)?.metadata;
  return ownershipViewWith(obj, meta?.managedFields ?? [], options);
}

/** Same as ownershipView with managedFields given separately (e.g. from a different revision). */
export function ownershipViewWith(obj: Json, managedFields: ManagedFieldsEntry[], options: OwnershipOptions = {}): OwnershipView {
  const shown = sortKeysDeep(options.showManagedFields ? obj : withoutManagedFields(obj));
  const { text: yaml, spans } = yamlWithLines(shown);
  const claims = collectClaims(managedFields, obj);
  const lineCount = yaml.split('\n').length - 1;
  const lines: OwnedLine[] = Array.from({ length: lineCount }, (_, i) => ({ line: i + 1, paths: [], owners: [] }));
  const pathLines = new Map<string, number[]>();

  const own = (from: number, to: number, owners: readonly FieldOwner[]) => {
    for (let l = from; l <= to; l++) {
      const target = lines[l - 1];
      if (!target) continue;
      for (const o of owners) if (!target.owners.includes(o)) target.owners.push(o);
    }
  };
  const markPath = (label: string, from: number, to: number) => {
    lines[from - 1]?.paths.push(label);
    const span: number[] = [];
    for (let l = from; l <= to; l++) span.push(l);
    pathLines.set(label, span);
  };
  const spanOf = (k: PathKey): [number, number] => spans.get(k) ?? [1, 1];
  const isBlock = (v: Json) => (Array.isArray(v) ? v.length > 0 : v !== null && typeof v === 'object' && Object.keys(v).length > 0);

  // Visits a block map or list whose text starts on `startLine`; `inherited` are owners of an atomic ancestor.
  const visit = (value: Json, k: PathKey, label: string, startLine: number, inherited: readonly FieldOwner[]) => {
    const direct = claims.direct.get(k) ?? [];
    const below = [...inherited, ...(claims.subtree.get(k) ?? [])];
    if (k !== ROOT) markPath(label, startLine, spanOf(k)[1]);
    own(startLine, startLine, [...direct, ...inherited]);
    const children: Array<[PathKey, Json, string]> = Array.isArray(value)
      ? value.map((item, index) => {
          const childPath = childKey(k, index);
          return [childPath, item, claims.labels.get(childPath) ?? `[${index}]`];
        })
      : Object.entries(value as Record<string, Json>).map(([name, v]) => [childKey(k, name), v, `.${name}`]);
    for (const [childPath, child, suffix] of children) {
      const [first, last] = spanOf(childPath);
      if (isBlock(child)) visit(child, childPath, `${label}${suffix}`, first, below);
      else {
        // Scalars (even multi-line ones), {} and []: every line of the field belongs to it.
        markPath(`${label}${suffix}`, first, last);
        const owners = claims.direct.get(childPath);
        own(first, last, owners ? [...below, ...owners] : below);
      }
    }
  };
  if (isBlock(shown)) visit(shown, ROOT, '', 1, []);
  else own(1, lineCount, claims.direct.get(ROOT) ?? []);

  // Co-owners are listed the same way on every line: in managedFields order.
  const rank = new Map(claims.owners.map((o, i) => [o, i] as const));
  for (const line of lines) line.owners.sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0));
  return { yaml, lines, legend: colourForManagers(claims.owners), pathLines };
}

/** Lines to mark for conflict causes (`details.causes[].field` of a 409), sorted, without duplicates. */
export function conflictLines(view: OwnershipView, causes: ReadonlyArray<{ field?: string }>): number[] {
  const marked = new Set<number>();
  for (const cause of causes) {
    if (!cause.field) continue;
    for (const l of view.pathLines.get(cause.field) ?? []) marked.add(l);
  }
  return [...marked].sort((a, b) => a - b);
}

/** One line for a hover: `kubectl-client-side-apply (Update, apps/v1, 2024-01-01T00:00:00Z)`. */
export function describeOwner(o: FieldOwner): string {
  const parts = [o.operation, o.apiVersion, o.subresource && `subresource ${o.subresource}`, o.time].filter(Boolean);
  return parts.length ? `${o.manager} (${parts.join(', ')})` : o.manager;
}
