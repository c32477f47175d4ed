// Custom objects as kube-apiserver writes them. They live in it as unstructured maps
// (map[string]interface{}), which encoding/json writes with every object's keys sorted bytewise,
// at every level: `{"apiVersion":..,"kind":..,"metadata":{"creationTimestamp":..,"generation":..,
// "managedFields":[{"apiVersion":..,"fieldsType":..,..}],"name":..},"spec":..}`, and a list as
// `{"apiVersion":..,"items":[..],"kind":..,"metadata":{"continue":"","resourceVersion":..}}`.
import { setOwnKey, withSortedKeys } from '../codec/own-keys';
import { builtinResources } from '../schema';

/** Groups of the built-in kinds (typed: Go struct order), and meta.k8s.io's. */
const BUILTIN_GROUPS = new Set([...builtinResources.map((r) => r.group), 'meta.k8s.io']);

const customByApiVersion = new Map<string, boolean>();

/** Whether objects of this apiVersion are a custom resource's (unstructured in kube). Asked on every read: remembered per apiVersion. */
export function isCustomApiVersion(apiVersion: unknown): boolean {
  if (typeof apiVersion !== 'string') return false;
  let custom = customByApiVersion.get(apiVersion);
  if (custom === undefined) {
    const slash = apiVersion.indexOf('/');
    custom = slash > 0 && !BUILTIN_GROUPS.has(apiVersion.slice(0, slash));
    customByApiVersion.set(apiVersion, custom);
  }
  return custom;
}

/** `value` with every object's keys sorted bytewise (a copy where anything moved). */
export function sortedDeep(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const next = sortedDeep(value[i]);
      if (next !== value[i]) (out ??= [...value])[i] = next;
    }
    return out ?? value;
  }
  const obj = value as Record<string, unknown>;
  const sorted = withSortedKeys(obj);
  let out = sorted === obj ? undefined : sorted;
  for (const k of Object.keys(sorted)) {
    const v = sorted[k];
    const next = sortedDeep(v);
    if (next !== v) setOwnKey((out ??= { ...obj }), k, next);
  }
  return out ?? obj;
}

/**
 * A custom object's stored text (sorted, without kind and apiVersion) with them put back in
 * their sorted places. Top-level keys usually start at `metadata`, after both.
 */
export function withSortedTypeMeta(storedText: string, kind: string, apiVersion: string): string {
  if (storedText.startsWith('{"metadata":') || storedText === '{}') {
    const head = `{"apiVersion":${JSON.stringify(apiVersion)},"kind":${JSON.stringify(kind)}`;
    return storedText === '{}' ? `${head}}` : `${head},${storedText.slice(1)}`;
  }
  return JSON.stringify(sortedDeep({ ...(JSON.parse(storedText) as object), apiVersion, kind }));
}
