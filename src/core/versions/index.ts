// Conversions between the served versions of built-in resources that share one storage
// version. Pure functions over plain JSON objects (as the API serves them); the registry wires
// them in through src/core/registry/conversion.ts. Every conversion goes through a per-kind hub
// form (kube's internal type as JSON) so each kind only needs to know "its version <-> hub".
import { builtinResources } from '../schema/index';
import { cloneJson, type JsonObject } from './json';
import { pdbFromHub, pdbToHub } from './pdb';
import { hpaFromHub, hpaToHub } from './hpa';
import { eventFromHub, eventToHub } from './events';
import { endpointSliceFromHub, endpointSliceToHub } from './endpointslice';

interface GroupVersion {
  group: string;
  version: string;
}

/** Splits `apps/v1` / `v1` into group and version. */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const slash = apiVersion.lastIndexOf('/');
  return slash === -1 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

interface KindConversion {
  /** Served group/versions of this kind, e.g. `policy/v1beta1`. */
  apiVersions: readonly string[];
  toHub(obj: JsonObject, gv: GroupVersion): JsonObject;
  fromHub(obj: JsonObject, gv: GroupVersion): JsonObject;
}

const same = (obj: JsonObject) => obj;

/** Keyed by kind; a kind's versions may span groups (Event: core and events.k8s.io). */
const CONVERSIONS: Record<string, KindConversion> = {
  // batch/v1beta1 and v1 CronJob have the same fields in 1.23 (timeZone arrives in 1.24).
  CronJob: { apiVersions: ['batch/v1', 'batch/v1beta1'], toHub: same, fromHub: same },
  PodDisruptionBudget: {
    apiVersions: ['policy/v1', 'policy/v1beta1'],
    toHub: (o, gv) => pdbToHub(o, gv.version),
    fromHub: (o, gv) => pdbFromHub(o, gv.version),
  },
  HorizontalPodAutoscaler: {
    apiVersions: ['autoscaling/v1', 'autoscaling/v2', 'autoscaling/v2beta1', 'autoscaling/v2beta2'],
    toHub: (o, gv) => hpaToHub(o, gv.version),
    fromHub: (o, gv) => hpaFromHub(o, gv.version),
  },
  Event: {
    apiVersions: ['v1', 'events.k8s.io/v1', 'events.k8s.io/v1beta1'],
    toHub: (o, gv) => eventToHub(o, gv.group),
    fromHub: (o, gv) => eventFromHub(o, gv.group),
  },
  EndpointSlice: {
    apiVersions: ['discovery.k8s.io/v1', 'discovery.k8s.io/v1beta1'],
    toHub: (o, gv) => endpointSliceToHub(o, gv.version),
    fromHub: (o, gv) => endpointSliceFromHub(o, gv.version),
  },
  // node.k8s.io/v1beta1 RuntimeClass already has handler/overhead/scheduling at top level.
  RuntimeClass: { apiVersions: ['node.k8s.io/v1', 'node.k8s.io/v1beta1'], toHub: same, fromHub: same },
  // flowcontrol v1beta1 and v1beta2 are field-for-field identical in 1.23.
  FlowSchema: {
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta1', 'flowcontrol.apiserver.k8s.io/v1beta2'],
    toHub: same,
    fromHub: same,
  },
  PriorityLevelConfiguration: {
    apiVersions: ['flowcontrol.apiserver.k8s.io/v1beta1', 'flowcontrol.apiserver.k8s.io/v1beta2'],
    toHub: same,
    fromHub: same,
  },
  // Served only at storage.k8s.io/v1beta1 in 1.23: only the identity conversion exists.
  CSIStorageCapacity: { apiVersions: ['storage.k8s.io/v1beta1'], toHub: same, fromHub: same },
};

/**
 * Whether objects of `kind` change shape between the two apiVersions. False for the same version
 * and for kinds whose versions are field-for-field identical, so callers can skip `convert`
 * (and the parse it needs) entirely.
 */
export function needsConversion(kind: string, fromApiVersion: string, toApiVersion: string): boolean {
  if (fromApiVersion === toApiVersion) return false;
  const conversion = Object.hasOwn(CONVERSIONS, kind) ? CONVERSIONS[kind] : undefined;
  if (!conversion) return false;
  return conversion.toHub !== same || conversion.fromHub !== same;
}

/** The kinds `convert` knows, with their served apiVersions. */
export function convertibleKinds(): Record<string, readonly string[]> {
  return Object.fromEntries(Object.entries(CONVERSIONS).map(([kind, c]) => [kind, c.apiVersions]));
}

/**
 * Converts `obj` (its JSON form at `fromApiVersion`) to `toApiVersion`. The kind comes from
 * `obj.kind`. Throws for a kind without conversions or an apiVersion the kind is not served at.
 * The input is never mutated; the result carries the target apiVersion.
 */
export function convert(obj: object, fromApiVersion: string, toApiVersion: string): object {
  return convertOwned(cloneJson(obj as JsonObject), fromApiVersion, toApiVersion);
}

/**
 * convert() for an object the caller hands over (e.g. freshly parsed stored text it drops
 * afterwards): no defensive deep copy, and the result may share parts with `obj`. Reads of a
 * converted object spend most of their time copying, so the storage codec uses this.
 */
export function convertOwned(obj: object, fromApiVersion: string, toApiVersion: string): object {
  const source = obj as JsonObject;
  const kind = typeof source.kind === 'string' ? source.kind : '';
  const converted = convertBodyOwned(kind, source, fromApiVersion, toApiVersion);
  // apiVersion and kind lead, as kube writes TypeMeta first.
  const { apiVersion: _a, kind: _k, ...rest } = converted;
  return { apiVersion: toApiVersion, kind, ...rest };
}

/**
 * convertOwned() for an object whose kind the caller names, e.g. parsed stored text, which has
 * no kind/apiVersion. The result's TypeMeta is left as the conversion made it (absent for such
 * input): callers that serialise stored text drop TypeMeta anyway, so putting it first would be
 * a wasted copy on the read path.
 */
export function convertBodyOwned(kind: string, obj: JsonObject, fromApiVersion: string, toApiVersion: string): JsonObject {
  const conversion = Object.hasOwn(CONVERSIONS, kind) ? CONVERSIONS[kind] : undefined;
  if (!conversion) throw new Error(`no conversion for kind ${JSON.stringify(kind)}`);
  if (!conversion.apiVersions.includes(fromApiVersion)) throw new Error(`${kind} is not served at ${fromApiVersion}`);
  if (!conversion.apiVersions.includes(toApiVersion)) throw new Error(`${kind} is not served at ${toApiVersion}`);
  const hub = conversion.toHub(obj, parseApiVersion(fromApiVersion));
  return conversion.fromHub(hub, parseApiVersion(toApiVersion));
}

/**
 * The group/version objects of `group`/`resource` are stored at (`v1` for core). Resources
 * served at one version only are stored at that version. Throws for an unknown resource.
 */
export function storageVersionOf(group: string, resource: string): string {
  let only: string | undefined;
  for (const info of builtinResources) {
    if (info.group !== group || info.resource !== resource) continue;
    if (info.storageVersion) return info.storageVersion;
    only = group === '' ? info.version : `${group}/${info.version}`;
  }
  if (only === undefined) throw new Error(`unknown resource ${resource}${group ? `.${group}` : ''}`);
  return only;
}

