// pods/log options as kube-apiserver v1.23 reads and validates them (PodLogOptions from the query,
// then ValidatePodLogOptions, before the pod is even looked up), and the hook through which a
// simulated kubelet answers for the nodes it runs (core/controllers/pod-logs.ts).
import type { ApiResponse } from '../meta/types';
import type { Obj } from '../registry/objects';
import { badRequest, invalid, type FieldError } from '../meta/status';
import { isTrueQueryValue } from '../meta/query-bool';

export type { KubeletLogs, PodLogOptions } from '../registry/kubelet-logs';
import type { PodLogOptions } from '../registry/kubelet-logs';

/** runtime.Convert_Slice_string_To_Pointer_int64: strconv.ParseInt's error text on bad input. */
function int64Option(query: URLSearchParams, name: string): number | undefined {
  const v = query.get(name);
  if (v === null) return undefined;
  if (!/^[+-]?[0-9]+$/.test(v)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return Number(v);
}

export function readPodLogOptions(name: string, query: URLSearchParams): PodLogOptions {
  const opts: PodLogOptions = {
    container: query.get('container') ?? '',
    follow: isTrueQueryValue(query.get('follow')),
    previous: isTrueQueryValue(query.get('previous')),
    timestamps: isTrueQueryValue(query.get('timestamps')),
    tailLines: int64Option(query, 'tailLines'),
    limitBytes: int64Option(query, 'limitBytes'),
    sinceSeconds: int64Option(query, 'sinceSeconds'),
  };
  const since = query.get('sinceTime');
  if (since !== null) {
    const t = Date.parse(since);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(since) || !Number.isFinite(t)) throw badRequest(`parsing time ${JSON.stringify(since)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(since)} as "2006"`);
    opts.sinceTime = t;
  }
  const errs: FieldError[] = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0) errs.push({ type: 'FieldValueInvalid', field: 'tailLines', value: opts.tailLines, detail: 'must be greater than or equal to 0' });
  if (opts.limitBytes !== undefined && opts.limitBytes < 1) errs.push({ type: 'FieldValueInvalid', field: 'limitBytes', value: opts.limitBytes, detail: 'must be greater than 0' });
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) errs.push({ type: 'FieldValueForbidden', field: '', detail: 'at most one of `sinceTime` or `sinceSeconds` may be specified' });
  else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1) errs.push({ type: 'FieldValueInvalid', field: 'sinceSeconds', value: opts.sinceSeconds, detail: 'must be greater than 0' });
  if (errs.length) throw invalid('', 'PodLogOptions', name, errs);
  return opts;
}
