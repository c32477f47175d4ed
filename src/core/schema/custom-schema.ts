// OpenAPI v3 component schemas for custom resources, synthesized from a CRD version's
// `openAPIV3Schema` the way kube-apiserver publishes them: the user's schema plus apiVersion,
// kind and a metadata reference to ObjectMeta, tagged with the kind's GVK.
import type { ResourceInfo } from './resource-info';

type Json = Record<string, unknown>;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** Component name of a custom kind: the group reversed, then version and kind (`com.example.stable.v1.CronTab`). */
export function customComponentName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The component schema of a custom resource's kind. Without a schema (or with an unusable one)
 * the object is open: `x-kubernetes-preserve-unknown-fields`.
 */
export function customKindSchema(r: ResourceInfo, openAPIV3Schema: unknown, refPrefix: string): Json {
  const base: Json = isObject(openAPIV3Schema)
    ? (JSON.parse(JSON.stringify(openAPIV3Schema)) as Json)
    : { 'x-kubernetes-preserve-unknown-fields': true };
  const properties = isObject(base.properties) ? base.properties : {};
  return {
    ...base,
    type: 'object',
    properties: {
      ...properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: `${refPrefix}${META}ObjectMeta` },
    },
    'x-kubernetes-group-version-kind': [{ group: r.group, version: r.version, kind: r.kind }],
  };
}

/** The component schema of a custom resource's list kind. */
export function customListSchema(r: ResourceInfo, refPrefix: string): Json {
  return {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: `${refPrefix}${customComponentName(r.group, r.version, r.kind)}` } },
      kind: { type: 'string' },
      metadata: { $ref: `${refPrefix}${META}ListMeta` },
    },
    'x-kubernetes-group-version-kind': [{ group: r.group, version: r.version, kind: r.listKind }],
  };
}
