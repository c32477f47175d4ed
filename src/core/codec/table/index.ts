// meta.k8s.io Table responses (what `kubectl get` asks for with `as=Table`): columns and cells
// as kube-apiserver v1.23 prints them, rows carrying PartialObjectMetadata, the full object or
// nothing, and the list metadata (resourceVersion/continue) that `get -w` and chunking rely on.
import { customPrinter } from './custom';
import { asRecord } from './format';
import { genericPrinter } from './generic';
import type { KubeObject, PrinterColumnSpec, Printer, TableOptions } from './types';

export type { ColumnDefinition, PrinterColumnSpec, Printer, TableOptions } from './types';
export { humanDuration } from './time';

/** {kind:'PartialObjectMetadata', apiVersion, metadata}: the whole metadata, managedFields included. */
export function toPartialObjectMetadata(obj: KubeObject, apiVersion: string): object {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: { ...asRecord(obj?.metadata) } };
}

function choosePrinter(printer: Printer | undefined, customColumns?: PrinterColumnSpec[]): Printer {
  if (customColumns !== undefined) return customPrinter(customColumns);
  return printer ?? genericPrinter;
}

function rowObject(item: KubeObject, opts: TableOptions): object | undefined {
  switch (opts.includeObject) {
    case 'None':
      return undefined;
    case 'Object':
      return item;
    default:
      return toPartialObjectMetadata(item, opts.apiVersion);
  }
}

/** Only the ListMeta fields a Table carries, in Go's field order, empty ones left out. */
function tableMetadata(listMeta: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (listMeta.resourceVersion !== undefined && listMeta.resourceVersion !== '') out.resourceVersion = listMeta.resourceVersion;
  if (listMeta.continue !== undefined && listMeta.continue !== '') out.continue = listMeta.continue;
  if (listMeta.remainingItemCount !== undefined && listMeta.remainingItemCount !== null) out.remainingItemCount = listMeta.remainingItemCount;
  return out;
}

/**
 * Builds a Table object for these items. listMeta = { resourceVersion, continue?, remainingItemCount? }
 * (copied into Table.metadata). Pass customColumns (possibly empty) for custom resources.
 * With noHeaders, columnDefinitions is null, as kube-apiserver serializes it for later watch events.
 */
export function buildTable(
  /** The kind's printer (its spec's, registry/kinds/); undefined for the generic Name/Created At table. */
  kindPrinter: Printer | undefined,
  items: any[], // eslint-disable-line @typescript-eslint/no-explicit-any
  listMeta: Record<string, unknown>,
  opts: TableOptions,
  customColumns?: PrinterColumnSpec[],
): object {
  const printer = choosePrinter(kindPrinter, customColumns);
  const rows = (printer.order ? printer.order(items) : items).map((item: KubeObject) => {
    const printed = printer.print(item ?? {}, opts.now);
    const row: Record<string, unknown> = { cells: printed.cells };
    if (printed.conditions) row.conditions = printed.conditions;
    const object = rowObject(item ?? {}, opts);
    if (object !== undefined) row.object = object;
    return row;
  });
  return {
    kind: 'Table',
    apiVersion: opts.apiVersion,
    metadata: tableMetadata(listMeta),
    columnDefinitions: opts.noHeaders ? null : printer.columns.map((c) => ({ ...c })),
    rows,
  };
}
