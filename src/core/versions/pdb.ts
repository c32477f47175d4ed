// PodDisruptionBudget policy/v1beta1 <-> policy/v1 (storage and hub: v1).
// An empty selector means "no pods" in v1beta1 but "all pods" in v1. kube keeps both meanings
// with a reserved label key (pkg/apis/policy/helper.go facts): the v1 form of a v1beta1 `{}` is
// `matchExpressions: [{key: <label>, operator: Exists}]` (matches nothing real), and a v1 `{}`
// reads back in v1beta1 as `[{key: <label>, operator: DoesNotExist}]` (matches everything).
import { type JsonObject, cloneJson, isObject, jsonEqual, objectAt, replaceKey } from './json';

export const PDB_V1BETA1_LABEL = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';

const MATCH_NONE_V1 = { matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'Exists' }] };
const MATCH_ALL_V1BETA1 = { matchExpressions: [{ key: PDB_V1BETA1_LABEL, operator: 'DoesNotExist' }] };

/** Drops requirements on the reserved key; an emptied matchExpressions disappears. */
function stripReservedLabel(selector: JsonObject): JsonObject {
  const expressions = selector.matchExpressions;
  if (!Array.isArray(expressions)) return selector;
  const kept = expressions.filter((e) => !(isObject(e) && e.key === PDB_V1BETA1_LABEL));
  if (kept.length === expressions.length) return selector;
  return replaceKey(selector, 'matchExpressions', 'matchExpressions', kept.length ? kept : undefined);
}

function mapSelector(obj: JsonObject, map: (selector: JsonObject) => JsonObject): JsonObject {
  const spec = objectAt(obj, 'spec');
  const selector = objectAt(spec, 'selector');
  if (!spec || !selector) return obj;
  return { ...obj, spec: { ...spec, selector: map(selector) } };
}

const isEmptySelector = (s: JsonObject) =>
  jsonEqual(s, {}) || jsonEqual(s, { matchLabels: {} }) || jsonEqual(s, { matchExpressions: [] }) || jsonEqual(s, { matchLabels: {}, matchExpressions: [] });

export function pdbToHub(obj: JsonObject, version: string): JsonObject {
  if (version === 'v1') {
    return mapSelector(obj, (s) => (jsonEqual(s, MATCH_NONE_V1) ? s : stripReservedLabel(s)));
  }
  return mapSelector(obj, (s) => {
    if (isEmptySelector(s)) return cloneJson(MATCH_NONE_V1);
    if (jsonEqual(s, MATCH_ALL_V1BETA1)) return {};
    return stripReservedLabel(s);
  });
}

export function pdbFromHub(obj: JsonObject, version: string): JsonObject {
  if (version === 'v1') return obj;
  return mapSelector(obj, (s) => {
    if (jsonEqual(s, MATCH_NONE_V1)) return {};
    if (isEmptySelector(s)) return cloneJson(MATCH_ALL_V1BETA1);
    return s;
  });
}
