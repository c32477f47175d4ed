// LIST: label/field selectors, limit/continue paging from one snapshot, and the
// resourceVersion × resourceVersionMatch matrix of kube-apiserver v1.23.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { ApiError, badRequest, expired } from '../meta/status';
import { listPrefix } from '../registry/catalog';
import { makePredicate } from '../registry/predicate';
import { servedPredicate, servedText } from '../registry/conversion';
import { StorageError, type KV, type RangeResult } from '../storage/types';
import { awaitRevision, decodeContinue, encodeContinue, parseResourceVersion, CONTINUE_EXPIRED_MESSAGE } from './resourceversion';
import { withTypeMeta, type Obj } from '../registry/objects';
import { baseHeaders, encodeValue, JSON_TYPE, prettyResponse } from './respond';
import { indentJson } from './pretty';
import { listBody } from './list-bytes';
import { buildTable, toPartialObjectMetadata } from '../codec/table';
import { toYaml } from '../codec/yaml';

export interface ListPlan {
  /** Read at exactly this revision (history), or latest when undefined. */
  rev?: number;
  /** Wait until the store has at least this revision, then read latest. */
  notOlderThan?: number;
  afterRelative?: string;
  limit: number;
  /** True when paging from a continue token (410 Expired when its revision is gone). */
  continuing: boolean;
}

/**
 * ListOptions validation, all rules at once in kube-apiserver's order and wording. It looks at the
 * resourceVersion's text, as kube's does (`"0"`, set or not), before anything parses it. The issue
 * asks for 400 here; kube-apiserver v1.23 answers the same message as a 422 Invalid.
 */
function validateListOptions(rvText: string, match: string, cont: string): void {
  const errs: string[] = [];
  if (match && rvText === '') errs.push('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
  if (match && cont) errs.push('resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided');
  if (match !== '' && match !== 'Exact' && match !== 'NotOlderThan') {
    errs.push(`resourceVersionMatch: Unsupported value: ${JSON.stringify(match)}: supported values: "Exact", "NotOlderThan", ""`);
  }
  if (match === 'Exact' && rvText === '0') errs.push('resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"');
  if (errs.length) throw badRequest(`ListOptions.meta.k8s.io "" is invalid: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`);
}

/** The matrix of the list semantics (see issue text / kube docs "Resource versions"). */
export function planList(query: URLSearchParams): ListPlan {
  const rvText = query.get('resourceVersion') ?? '';
  const match = query.get('resourceVersionMatch') ?? '';
  const cont = query.get('continue') ?? '';
  const limitText = query.get('limit');
  let limit = 0;
  if (limitText !== null && limitText !== '') {
    if (!/^-?[0-9]+$/.test(limitText)) throw badRequest(`invalid limit: ${limitText}`);
    limit = Math.max(0, Number(limitText));
  }
  validateListOptions(rvText, match, cont);
  // The watch cache serves lists without a limit; paging and Exact reads go to the etcd3 store.
  // Each answers a malformed resourceVersion its own way (see resourceversion.ts).
  const fromStorage = cont !== '' || (limit > 0 && rvText !== '0') || match === 'Exact';
  const rv = parseResourceVersion(rvText, fromStorage ? 'etcd3 store' : 'watch cache');
  if (cont) {
    const tok = decodeContinue(cont);
    if (rv !== undefined && rvText !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    // A negative revision (what an expired continue answers with) continues at the latest.
    return { rev: tok.rev > 0 ? tok.rev : undefined, afterRelative: tok.afterRelative, limit, continuing: tok.rev > 0 };
  }
  if (rv === undefined) return { limit, continuing: false };
  // kube-apiserver serves resourceVersion=0 from its watch cache, which does not page: the limit
  // is ignored and the whole list comes back (client-go's reflectors rely on it).
  if (rv === 0) return { limit: 0, continuing: false };
  if (match === 'Exact' || (match === '' && limit > 0)) return { rev: rv, limit, continuing: false };
  return { notOlderThan: rv, limit, continuing: false };
}

export interface ListData {
  kvs: KV[];
  rev: number;
  continueToken?: string;
  remaining?: number;
}

/** Read the items a list request names (shared by list, table and watch's initial state). */
export async function readList(rc: RequestContext): Promise<ListData> {
  const { reg, r, info, query } = rc;
  const plan = planList(query);
  const pred = servedPredicate(r, makePredicate(r, query));
  const prefix = listPrefix(r, info.namespace);
  const requested = query.get('resourceVersion') ?? undefined;
  if (plan.notOlderThan !== undefined) await awaitRevision(reg.mvcc, plan.notOlderThan, requested);
  if (plan.rev !== undefined && !plan.continuing) await awaitRevision(reg.mvcc, plan.rev, requested);
  // etcd refuses a read past its revision; kube-apiserver passes the error on as it is (a 500
  // with no reason). Only a forged continue token gets here.
  if (plan.continuing && plan.rev !== undefined && plan.rev > reg.mvcc.revision) throw new ApiError(500, '', 'etcdserver: mvcc: required revision is a future revision');
  let res: RangeResult;
  try {
    res = await reg.mvcc.range(prefix, {
      rev: plan.rev,
      after: plan.afterRelative !== undefined ? prefix + plan.afterRelative : undefined,
      limit: plan.limit,
      filter: pred.filter,
    });
  } catch (err) {
    if (err instanceof StorageError && err.code === 'Expired') {
      if (plan.continuing) {
        // The Status carries a token that goes on from the same key at the latest revision.
        const e = expired(CONTINUE_EXPIRED_MESSAGE);
        e.statusMetadata = { continue: encodeContinue(-1, plan.afterRelative ?? '') };
        throw e;
      }
      throw expired('The resourceVersion for the provided list is too old.');
    }
    throw err;
  }
  const data: ListData = { kvs: res.kvs, rev: res.rev };
  if (res.more && res.kvs.length) {
    data.continueToken = encodeContinue(res.rev, res.kvs[res.kvs.length - 1].key.slice(prefix.length));
    // The count is unknown when a selector filters the items.
    if (pred.empty) data.remaining = res.remaining;
  }
  return data;
}

export function listMeta(data: ListData): Obj {
  const m: Obj = { resourceVersion: String(data.rev) };
  if (data.continueToken) m.continue = data.continueToken;
  if (data.remaining !== undefined) m.remainingItemCount = data.remaining;
  return m;
}

/** An unstructured list's metadata: keys sorted, `continue` always there. */
function customListMeta(data: ListData): Obj {
  const m: Obj = { continue: data.continueToken ?? '' };
  if (data.remaining !== undefined) m.remainingItemCount = data.remaining;
  m.resourceVersion = String(data.rev);
  return m;
}

export async function handleList(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  const data = await readList(rc);
  return listResponse(rc, data, out);
}

export function listResponse(rc: RequestContext, data: ListData, out: OutputFormat): ApiResponse {
  const { r } = rc;
  const { kind, listKind } = r.info;
  // Stored text is at the storage version; converted kinds answer at the requested one.
  const texts = (): string[] => data.kvs.map((kv) => servedText(r, kv.value));
  const items = (): Obj[] => texts().map((text) => JSON.parse(withTypeMeta(text, kind, r.apiVersion)) as Obj);
  const now = rc.reg.now();
  switch (out.kind) {
    case 'table':
      return encodeValue(200, buildTable(r.spec?.printer, items(), listMeta(data), { includeObject: out.includeObject ?? 'Metadata', apiVersion: `meta.k8s.io/${out.version ?? 'v1'}`, now }, out.columns), out, rc.warnings);
    case 'pom': {
      const apiVersion = `meta.k8s.io/${out.version ?? 'v1'}`;
      return encodeValue(200, { kind: 'PartialObjectMetadataList', apiVersion, metadata: listMeta(data), items: items().map((o) => (toPartialObjectMetadata(o, apiVersion) as Obj)) }, out, rc.warnings);
    }
    case 'yaml':
      return { status: 200, headers: baseHeaders('application/yaml', rc.warnings), body: toYaml({ apiVersion: r.apiVersion, items: items(), kind: listKind, metadata: listMeta(data) }) };
    case 'protobuf':
      return encodeValue(200, { kind: listKind, apiVersion: r.apiVersion, metadata: listMeta(data), items: items() }, out, rc.warnings);
    default: {
      // Built-in list items carry no kind/apiVersion (typed lists); custom resource items do.
      const itemText = r.info.custom ? (kv: KV) => withTypeMeta(servedText(r, kv.value), kind, r.apiVersion) : (kv: KV) => servedText(r, kv.value);
      // A custom resource's list is an unstructured map in kube: keys sorted, and `continue` set
      // (empty on the last page) by the storage layer.
      const [head, tail] = r.info.custom
        ? [`{"apiVersion":${JSON.stringify(r.apiVersion)},"items":[`, `],"kind":${JSON.stringify(listKind)},"metadata":${JSON.stringify(customListMeta(data))}}`]
        : [`{"kind":${JSON.stringify(listKind)},"apiVersion":${JSON.stringify(r.apiVersion)},"metadata":${JSON.stringify(listMeta(data))},"items":[`, ']}'];
      if (out.pretty) return prettyResponse(200, indentJson(`${head}${data.kvs.map(itemText).join(',')}${tail}`), rc.warnings);
      return { status: 200, headers: baseHeaders(JSON_TYPE, rc.warnings), body: listBody(head, data.kvs, `${tail}\n`, r.codec ? `${r.apiVersion}#${r.codec.id}` : r.apiVersion, itemText) };
    }
  }
}
