// componentstatuses as kube-apiserver v1.23 serves them: a REST storage that can only get and
// list, answering objects made up per request (registry/resources/component-statuses.ts) in any
// negotiated format, with the selectors applied to them. The dispatcher has already added the
// deprecation warning, which every answer of its handlers carries, errors included.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import type { RequestInfo } from '../meta/requestinfo';
import type { ServedResource } from '../registry/catalog';
import { ApiError, methodNotAllowed, pathNotFound } from '../meta/status';
import { encodeValue, objectResponse } from './respond';
import { makePredicate } from '../registry/predicate';
import { buildTable, toPartialObjectMetadata } from '../codec/table';
import type { Obj } from '../registry/objects';
import { componentStatuses, componentStatusNamed } from '../kinds/component-statuses';

export function isComponentStatuses(r: ServedResource): boolean {
  return r.info.group === '' && r.info.resource === 'componentstatuses' && !r.info.custom;
}

/**
 * A watch gets past the dispatcher's verb check for componentstatuses, because kube answers it
 * here rather than with the router's generic 405 (see handleComponentStatuses).
 */
export function answersOwnWatch(r: ServedResource, info: RequestInfo): boolean {
  return info.verb === 'watch' && isComponentStatuses(r);
}

/** `/api/v1/watch/...`: the legacy watch path (as opposed to `?watch=true`). */
function isWatchPath(info: RequestInfo): boolean {
  return info.path.split('/').filter(Boolean)[2] === 'watch';
}

export function handleComponentStatuses(rc: RequestContext, out: OutputFormat): ApiResponse {
  const { info, r } = rc;
  const now = rc.reg.now();
  switch (info.verb) {
    case 'get': {
      const obj = componentStatusNamed(info.name);
      // Not a NotFound: kube's storage returns a plain Go error, which becomes a 500 without a reason.
      if (!obj) throw new ApiError(500, '', `Component not found: ${info.name}`);
      return objectResponse(200, r, obj, undefined, out, rc.warnings, now);
    }
    case 'list':
      return listResponse(rc, out, now);
    case 'watch':
      if (isWatchPath(info)) {
        // The /watch/ route is never registered for a storage that cannot watch: the mux's 404
        // comes before the resource's handlers and so without their deprecation warning.
        rc.warnings.length = 0;
        throw pathNotFound();
      }
      // `?watch=true` reaches the list handler, which refuses it (apierrors.NewMethodNotSupported).
      throw new ApiError(405, 'MethodNotAllowed', 'watch is not supported on resources of kind "componentstatuses"', { kind: 'componentstatuses' });
    default:
      throw methodNotAllowed();
  }
}

function listResponse(rc: RequestContext, out: OutputFormat, now: number): ApiResponse {
  const { r } = rc;
  const pred = makePredicate(r, rc.query);
  const items = componentStatuses().filter((o) => pred.matchText(JSON.stringify(o)));
  // Built-in list items carry no kind/apiVersion; the list has no resourceVersion (nothing is stored).
  const bare = items.map((o) => ({ metadata: o.metadata, conditions: o.conditions }) as Obj);
  const metaVersion = `meta.k8s.io/${out.version ?? 'v1'}`;
  switch (out.kind) {
    case 'table':
      return encodeValue(200, buildTable(r.spec?.printer, items, {}, { includeObject: out.includeObject ?? 'Metadata', apiVersion: metaVersion, now }), out, rc.warnings);
    case 'pom':
      return encodeValue(200, { kind: 'PartialObjectMetadataList', apiVersion: metaVersion, metadata: {}, items: items.map((o) => toPartialObjectMetadata(o, metaVersion)) }, out, rc.warnings);
    default:
      // JSON, YAML (keys sorted by the encoder, as go-yaml does) or protobuf.
      return encodeValue(200, { kind: r.info.listKind, apiVersion: r.apiVersion, metadata: {}, items: bare }, out, rc.warnings);
  }
}
