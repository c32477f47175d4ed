// What the API knows about one served resource of one group/version. Built-in resources come from
// src/core/schema/generated/resources.json (scripts/gen-resources.mjs); custom resources are made
// from CustomResourceDefinitions at run time.

export interface SubresourceInfo {
  /** `status`, `scale`, `token`, `eviction`, `log`, `binding`, `finalize`, `proxy`, `exec`, ... */
  name: string;
  /** Kind answered by the subresource (`Scale` for scale, the parent kind for status). */
  kind: string;
  /** Group/version of that kind when it differs from the parent (`autoscaling`/`v1` for Scale). */
  group?: string;
  version?: string;
  verbs: string[];
}

export interface ResourceInfo {
  group: string;
  version: string;
  /** Plural resource name, e.g. `deployments`. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  /** Sorted like kube-apiserver discovery: create, delete, deletecollection, get, list, patch, update, watch. */
  verbs: string[];
  shortNames: string[];
  categories: string[];
  subresources: SubresourceInfo[];
  /** Definition name of the kind in the schema set, e.g. `io.k8s.api.apps.v1.Deployment`. */
  definition?: string;
  /** Storage group/version when objects are shared with another served version. */
  storageVersion?: string;
  /** Virtual resources (reviews): POST only, never stored. */
  virtual?: boolean;
  /** True for CRD-backed resources. */
  custom?: boolean;
  /** CRD scale subresource paths (`.spec.replicas`, ...). */
  scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  /** CRD additionalPrinterColumns for Table output. */
  printerColumns?: Array<{ name: string; type: string; format?: string; description?: string; priority?: number; jsonPath: string }>;
  /** CRD openAPIV3Schema of this version (structural validation, OpenAPI, field validation). */
  openAPIV3Schema?: Record<string, unknown>;
  /**
   * CRD: the storage version's schema, when it declares defaults. kube applies them to every
   * object it reads from storage (objects stored before a default was added read with it).
   */
  storedDefaults?: Record<string, unknown>;
}
