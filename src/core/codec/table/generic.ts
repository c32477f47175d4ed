// The table kube-apiserver builds for kinds without a printer: Name and the raw creation time.
import { NAME_COLUMN, asRecord, column, str } from './format';
import { createdAt } from './time';
import type { Printer } from './types';

export const genericPrinter: Printer = {
  columns: [NAME_COLUMN, column('Created At', 'date', 'Time the object was created (metadata.creationTimestamp).')],
  print(obj) {
    const meta = asRecord(obj.metadata);
    return { cells: [str(meta.name), createdAt(meta.creationTimestamp)] };
  },
};
