// The response format a request negotiated (from Accept and the query).

export interface OutputFormat {
  kind: 'json' | 'yaml' | 'table' | 'pom' | 'protobuf';
  /** meta.k8s.io version for Table / PartialObjectMetadata. */
  version?: 'v1' | 'v1beta1';
  /** Content-Type to answer with (the negotiated media type with its parameters). */
  contentType?: string;
  /** `?pretty=true` (JSON only). */
  pretty?: boolean;
  /** Table rows: `includeObject` query. */
  includeObject?: 'None' | 'Metadata' | 'Object';
  /** A conversion (PartialObjectMetadata) encoded as protobuf. */
  protobuf?: boolean;
  /** Custom resource printer columns. */
  columns?: PrinterColumnSpec[];
}

/** A CustomResourceDefinition additionalPrinterColumns entry. */
export interface PrinterColumnSpec {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}
