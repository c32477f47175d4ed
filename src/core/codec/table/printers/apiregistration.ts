// APIService: kube-aggregator v1.23 prints its own table (registry/apiservice/etcd's
// ConvertToTable): where the API is served (`Local`, or the Service as namespace/name) and the
// Available condition (`True`, else its status with the reason in parentheses; `Unknown` when
// there is no condition yet).
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, str } from '../format';
import { age } from '../time';
import type { Printer } from '../types';

export const apiServicePrinter: Printer = {
  columns: [NAME_COLUMN, column('Service', 'string', 'The Service that serves this API (Local when this server does).'), column('Available', 'string', 'Whether the API is available.'), AGE_COLUMN],
  print(obj, now) {
    const meta = asRecord(obj.metadata);
    const ref = asRecord(obj.spec).service;
    const service = ref && typeof ref === 'object' ? `${str(ref.namespace)}/${str(ref.name)}` : 'Local';
    let available = 'Unknown';
    const condition = asArray(asRecord(obj.status).conditions).find((c) => c.type === 'Available');
    if (condition) {
      const status = str(condition.status);
      available = status !== 'True' && str(condition.reason) ? `${status} (${str(condition.reason)})` : status;
    }
    return { cells: [str(meta.name), service, available, age(meta.creationTimestamp, now)] };
  },
};
