// Shapes of the meta.k8s.io Table wire format and of the per-kind printers that fill it.

/** One column header of a Table (field order matches the JSON kube-apiserver writes). */
export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableOptions {
  /** 'Metadata' (default: rows carry PartialObjectMetadata), 'Object' (full object), 'None'. */
  includeObject: 'None' | 'Metadata' | 'Object';
  /** Omit columnDefinitions (later watch events). */
  noHeaders?: boolean;
  /** apiVersion for the Table and PartialObjectMetadata: 'meta.k8s.io/v1' or 'meta.k8s.io/v1beta1'. */
  apiVersion: string;
  /** Current time in ms (for ages). */
  now: number;
}

// A CRD's additionalPrinterColumns entry is a word of the ground floor (a negotiated output names it).
export type { PrinterColumnSpec } from '../../meta/output';

/** A row condition; kube-apiserver only sets these for finished pods. */
export interface RowCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

/** Cells of one object, plus optional row conditions. */
export interface PrintedRow {
  cells: unknown[];
  conditions?: RowCondition[];
}

/** Any decoded Kubernetes object; printers read it defensively because fields may be absent. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type KubeObject = Record<string, any>;

/**
 * Columns and cell computation for one kind. The server always prints the "wide" variant;
 * kubectl hides priority > 0 columns itself unless `-o wide` is given.
 */
export interface Printer {
  columns: ColumnDefinition[];
  print(obj: KubeObject, now: number): PrintedRow;
  /** The row order of a list, when kube's list printer sorts (FlowSchemas by matching order). */
  order?(items: KubeObject[]): KubeObject[];
}
