// The checks structured-merge-diff makes when it turns an applied configuration into a typed
// value: a field the schema does not declare, a string where it says numeric, a number where it
// says string, and so on.
// kube-apiserver fails the apply with "failed to create typed patch object: <errors>" (see
// handlers/apply.ts); the errors read as SMD's validator prints them, Go formatting included:
//   .spec.replicas: expected numeric (int or float), got string
//   .data.a: expected string, got &value.valueUnstructured{Value:1}
//   .spec.paused: expected boolean, got &{yes}
//   .spec.bogus: field not declared in schema
// null is never an error. SMD walks maps in Go's random order; we sort by path.
import { fieldElement, indexElement, pathString, type PathElement } from './pathelement';
import type { TypeNode } from './schema';
import { listItemElement, mapChild, resolve } from './typed';
import { isMap } from './value';

export function appliedTypeErrors(value: unknown, type: TypeNode): string[] {
  const errors: Array<[string, string]> = [];
  walk(value, type, [], errors);
  return errors.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([path, message]) => `${path}: ${message}`);
}

function walk(v: unknown, t: TypeNode, path: PathElement[], errors: Array<[string, string]>): void {
  if (v === null || v === undefined) return;
  if (t.kind === 'scalar') {
    const message = t.value ? scalarError(t.value, v) : undefined;
    if (message) errors.push([pathString(path), message]);
    return;
  }
  const r = resolve(t, v);
  if (r.kind === 'map' && isMap(v)) {
    for (const k of Object.keys(v)) {
      const child = mapChild(r.type, k);
      // A closed struct has no place for the key: SMD cannot type the configuration at all.
      if (r.type && !child.declared && r.type.elem() === undefined) {
        errors.push([pathString([...path, fieldElement(k)]), 'field not declared in schema']);
        continue;
      }
      walk(v[k], child.type, [...path, fieldElement(k)], errors);
    }
  } else if (r.kind === 'list' && Array.isArray(v)) {
    v.forEach((item, i) => {
      let pe: PathElement;
      try {
        pe = listItemElement(r.type, i, item, false);
      } catch {
        // Key errors are the merge's to report; name the item by its index here.
        pe = indexElement(i);
      }
      walk(item, r.type.elem(), [...path, pe], errors);
    });
  }
}

function scalarError(want: 'string' | 'numeric' | 'boolean', v: unknown): string | undefined {
  switch (want) {
    case 'numeric':
      return typeof v === 'number' ? undefined : `expected numeric (int or float), got ${goTypeName(v)}`;
    case 'string':
      return typeof v === 'string' ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpV(v)}}`;
    case 'boolean':
      return typeof v === 'boolean' ? undefined : `expected boolean, got &{${goV(v)}}`;
  }
}

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

const sortedKeys = (o: object): string[] => Object.keys(o).sort();

/** Go's %#v of a decoded JSON value. */
function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(', ')}}`;
  const o = v as Record<string, unknown>;
  return `map[string]interface {}{${sortedKeys(o).map((k) => `${JSON.stringify(k)}:${goSharpV(o[k])}`).join(', ')}}`;
}

/** Go's %v of a decoded JSON value. */
function goV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  const o = v as Record<string, unknown>;
  return `map[${sortedKeys(o).map((k) => `${k}:${goV(o[k])}`).join(' ')}]`;
}
