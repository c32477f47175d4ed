// Schema shapes the field validator walks: OpenAPI v2 definitions for built-in kinds (by $ref)
// and CRD openAPIV3Schema (inline). Only what unknown-field detection needs.

export interface SchemaNode {
  type?: string | string[];
  format?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  /** `#/definitions/<name>` or `#/components/schemas/<name>`. */
  $ref?: string;
  allOf?: SchemaNode[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  [extra: string]: unknown;
}

export interface SchemaContext {
  /** Named definitions that `$ref`s point into. */
  definitions?: Record<string, SchemaNode>;
  /** The kind's schema, or its definition name (e.g. `io.k8s.api.apps.v1.Deployment`). */
  root: SchemaNode | string;
  /**
   * A custom resource judged against its CRD's structural schema: apiVersion/kind/metadata are
   * implicit, a bare `type: object` prunes everything below it, and errors are ordered like the
   * CR handler (duplicates, metadata, pruned fields, embedded metadata).
   */
  custom?: boolean;
}

export type FieldValidationDirective = 'Strict' | 'Warn' | 'Ignore';

export const OBJECT_META_DEFINITION = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
