// ComponentStatus: kube-apiserver v1.23's printer shows the Healthy condition as Healthy or
// Unhealthy (Unknown when there is none) with its message and error; there is no Age column,
// as these objects are made up on each request and have no creation time.
import { NAME_COLUMN, asArray, asRecord, column, str } from '../format';
import type { Printer } from '../types';

export const componentStatusPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Healthy or Unhealthy, from the Healthy condition.'),
    column('Message', 'string', 'Message of the Healthy condition.'),
    column('Error', 'string', 'Error of the Healthy condition.'),
  ],
  print(obj) {
    let status = 'Unknown';
    let message = '';
    let error = '';
    // The first Healthy condition decides; any status but True counts as unhealthy.
    const healthy = asArray(obj.conditions).find((c) => c.type === 'Healthy');
    if (healthy) {
      status = healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
      message = str(healthy.message);
      error = str(healthy.error);
    }
    return { cells: [str(asRecord(obj.metadata).name), status, message, error] };
  },
};
