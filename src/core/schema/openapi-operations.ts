// OpenAPI v3 `paths` for the resources of one group/version, shaped like kube-apiserver's: each
// operation carries `x-kubernetes-action` and a single-object `x-kubernetes-group-version-kind`,
// and PATCH operations list `fieldValidation` — kubectl's server-side validation decision reads
// exactly that (kubectl-wire §5.2).
import type { ResourceInfo, SubresourceInfo } from './resource-info';

/** How the operations refer to schemas; the caller decides the component names. */
export interface SchemaRefs {
  /** Schema (usually a `$ref`) of the resource's kind, or of a subresource's kind. */
  kind(r: ResourceInfo, sub?: SubresourceInfo): Record<string, unknown>;
  /** Schema of the list kind. */
  list(r: ResourceInfo): Record<string, unknown>;
  /** `$ref` to a meta.v1 type (Status, DeleteOptions, Patch). */
  meta(name: 'Status' | 'DeleteOptions' | 'Patch'): Record<string, unknown>;
}

type Json = Record<string, unknown>;
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

const stringParam = (name: string, inWhere = 'query') => ({ name, in: inWhere, schema: { type: 'string', uniqueItems: true } });
const boolParam = (name: string) => ({ name, in: 'query', schema: { type: 'boolean', uniqueItems: true } });
const intParam = (name: string) => ({ name, in: 'query', schema: { type: 'integer', uniqueItems: true } });
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string', uniqueItems: true } });

const LIST_PARAMS = [
  boolParam('allowWatchBookmarks'),
  stringParam('continue'),
  stringParam('fieldSelector'),
  stringParam('labelSelector'),
  intParam('limit'),
  stringParam('resourceVersion'),
  stringParam('resourceVersionMatch'),
  boolParam('sendInitialEvents'),
  intParam('timeoutSeconds'),
  boolParam('watch'),
];
const WRITE_PARAMS = [stringParam('dryRun'), stringParam('fieldManager'), stringParam('fieldValidation')];
const PATCH_PARAMS = [...WRITE_PARAMS, boolParam('force')];
const DELETE_PARAMS = [stringParam('dryRun'), intParam('gracePeriodSeconds'), boolParam('orphanDependents'), stringParam('propagationPolicy')];

const BUILTIN_PATCH_TYPES = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];
/** Custom resources do not support strategic merge patch (the server answers 415). */
const CUSTOM_PATCH_TYPES = BUILTIN_PATCH_TYPES.filter((t) => t !== 'application/strategic-merge-patch+json');

/**
 * `apps` → `Apps`, `rbac.authorization.k8s.io` → `RbacAuthorization`, `stable.example.com` →
 * `StableExampleCom`: kube's GetOperationIDAndTags trims `.k8s.io` and camel-cases the rest in
 * order (a custom group is not reversed, unlike its definition names).
 */
export function groupIdentifier(group: string): string {
  if (group === '') return 'Core';
  const trimmed = group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : group;
  return trimmed.split(/[^A-Za-z0-9_]+/).filter(Boolean).map(capitalize).join('');
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function contentOf(schema: Json, types: string[]): Json {
  return Object.fromEntries(types.map((t) => [t, { schema }]));
}

function responseTypes(custom: boolean, watchable: boolean): string[] {
  const base = custom ? ['application/json', 'application/yaml'] : ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
  if (!watchable) return base;
  return [...base, 'application/json;stream=watch', ...(custom ? [] : ['application/vnd.kubernetes.protobuf;stream=watch'])];
}

const DESCRIPTIONS: Record<string, string> = { '200': 'OK', '201': 'Created', '202': 'Accepted' };

function responses(schema: Json, codes: string[], types: string[]): Json {
  const out: Json = {};
  for (const code of codes) out[code] = { description: DESCRIPTIONS[code], content: contentOf(schema, types) };
  out['401'] = { description: 'Unauthorized' };
  return out;
}

interface OperationSpec {
  id: string;
  action: string;
  gvk: { group: string; version: string; kind: string };
  parameters: unknown[];
  requestBody?: Json;
  responses: Json;
}

function operation(spec: OperationSpec): Json {
  return {
    operationId: spec.id,
    ...(spec.parameters.length ? { parameters: spec.parameters } : {}),
    ...(spec.requestBody ? { requestBody: spec.requestBody } : {}),
    responses: spec.responses,
    'x-kubernetes-action': spec.action,
    'x-kubernetes-group-version-kind': spec.gvk,
  };
}

/** Connect subresources (exec, attach, portforward, proxy) take an `*Options` kind and stream. */
const isConnect = (s: SubresourceInfo) => s.kind.endsWith('Options');

const CONNECT_METHODS: Record<string, Method> = { get: 'get', create: 'post', update: 'put', delete: 'delete', patch: 'patch' };

/** Paths (keyed by URL template) for every resource of one group/version. */
export function buildPaths(resources: readonly ResourceInfo[], refs: SchemaRefs): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const r of resources) addResourcePaths(paths, r, refs);
  return Object.fromEntries(Object.keys(paths).sort().map((k) => [k, paths[k]]));
}

function addResourcePaths(paths: Record<string, Json>, r: ResourceInfo, refs: SchemaRefs): void {
  const custom = r.custom === true;
  const gvPrefix = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const scopePrefix = r.namespaced ? `${gvPrefix}/namespaces/{namespace}` : gvPrefix;
  const collection = `${scopePrefix}/${r.resource}`;
  const item = `${collection}/{name}`;
  const idBase = `${groupIdentifier(r.group)}${capitalize(r.version)}${r.namespaced ? 'Namespaced' : ''}${r.kind}`;
  const gvk = { group: r.group, version: r.version, kind: r.kind };
  const has = (verb: string) => r.verbs.includes(verb);
  const nsParams = r.namespaced ? [pathParam('namespace')] : [];
  const pretty = stringParam('pretty');
  const kindSchema = refs.kind(r);
  const json = responseTypes(custom, false);

  const collectionOps: Json = {};
  if (has('list')) {
    collectionOps.get = operation({ id: `list${idBase}`, action: 'list', gvk, parameters: LIST_PARAMS, responses: responses(refs.list(r), ['200'], responseTypes(custom, true)) });
  }
  if (has('create')) {
    collectionOps.post = operation({
      id: `create${idBase}`,
      action: 'post',
      gvk,
      parameters: WRITE_PARAMS,
      requestBody: { content: { '*/*': { schema: kindSchema } }, required: true },
      responses: responses(kindSchema, ['200', '201', '202'], json),
    });
  }
  if (has('deletecollection')) {
    collectionOps.delete = operation({
      id: `deleteCollection${idBase}`,
      action: 'deletecollection',
      gvk,
      parameters: [...LIST_PARAMS.filter((p) => p.name !== 'watch' && p.name !== 'allowWatchBookmarks'), ...DELETE_PARAMS],
      requestBody: { content: { '*/*': { schema: refs.meta('DeleteOptions') } } },
      responses: responses(refs.meta('Status'), ['200'], json),
    });
  }
  if (Object.keys(collectionOps).length) paths[collection] = { ...collectionOps, parameters: [...nsParams, pretty] };

  // Namespaced lists also answer across all namespaces at the group/version root.
  if (r.namespaced && has('list')) {
    paths[`${gvPrefix}/${r.resource}`] = {
      get: operation({
        id: `list${groupIdentifier(r.group)}${capitalize(r.version)}${r.kind}ForAllNamespaces`,
        action: 'list',
        gvk,
        parameters: LIST_PARAMS,
        responses: responses(refs.list(r), ['200'], responseTypes(custom, true)),
      }),
      parameters: [pretty],
    };
  }

  const itemOps = writeOps({ idBase, gvk, has, schema: kindSchema, types: json, custom, refs, withDelete: true });
  if (Object.keys(itemOps).length) paths[item] = { ...itemOps, parameters: [pathParam('name'), ...nsParams, pretty] };

  for (const s of r.subresources) {
    const subGvk = { group: s.group ?? r.group, version: s.version ?? r.version, kind: s.kind };
    const subId = `${idBase}${capitalize(s.name)}`;
    const subHas = (verb: string) => s.verbs.includes(verb);
    const params: unknown[] = [pathParam('name'), ...nsParams];
    let ops: Json;
    if (isConnect(s)) {
      ops = {};
      for (const verb of s.verbs) {
        const method = CONNECT_METHODS[verb];
        if (!method) continue;
        ops[method] = operation({
          id: `connect${capitalize(method)}${subId}`,
          action: 'connect',
          gvk: subGvk,
          parameters: [],
          responses: responses({ type: 'string' }, ['200'], ['*/*']),
        });
      }
    } else if (s.verbs.length === 1 && s.verbs[0] === 'create') {
      // eviction, binding, token: POST a request object.
      const schema = refs.kind(r, s);
      ops = {
        post: operation({
          id: `create${subId}`,
          action: 'post',
          gvk: subGvk,
          parameters: WRITE_PARAMS,
          requestBody: { content: { '*/*': { schema } }, required: true },
          responses: responses(schema, ['200', '201', '202'], json),
        }),
      };
    } else {
      ops = writeOps({ idBase: subId, gvk: subGvk, has: subHas, schema: refs.kind(r, s), types: json, custom, refs, withDelete: false });
      if (s.name !== 'log') params.push(pretty);
    }
    if (Object.keys(ops).length) paths[`${item}/${s.name}`] = { ...ops, parameters: params };
  }
}

interface WriteOpsArgs {
  idBase: string;
  gvk: { group: string; version: string; kind: string };
  has: (verb: string) => boolean;
  schema: Json;
  types: string[];
  custom: boolean;
  refs: SchemaRefs;
  withDelete: boolean;
}

/** get/put/patch(/delete) on one object or one of its subresources. */
function writeOps(a: WriteOpsArgs): Json {
  const ops: Json = {};
  if (a.has('get')) ops.get = operation({ id: `read${a.idBase}`, action: 'get', gvk: a.gvk, parameters: [], responses: responses(a.schema, ['200'], a.types) });
  if (a.has('update')) {
    ops.put = operation({
      id: `replace${a.idBase}`,
      action: 'put',
      gvk: a.gvk,
      parameters: WRITE_PARAMS,
      requestBody: { content: { '*/*': { schema: a.schema } }, required: true },
      responses: responses(a.schema, ['200', '201'], a.types),
    });
  }
  if (a.withDelete && a.has('delete')) {
    ops.delete = operation({
      id: `delete${a.idBase}`,
      action: 'delete',
      gvk: a.gvk,
      parameters: DELETE_PARAMS,
      requestBody: { content: { '*/*': { schema: a.refs.meta('DeleteOptions') } } },
      responses: responses(a.refs.meta('Status'), ['200', '202'], a.types),
    });
  }
  if (a.has('patch')) {
    ops.patch = operation({
      id: `patch${a.idBase}`,
      action: 'patch',
      gvk: a.gvk,
      parameters: PATCH_PARAMS,
      requestBody: { content: contentOf(a.refs.meta('Patch'), a.custom ? CUSTOM_PATCH_TYPES : BUILTIN_PATCH_TYPES), required: true },
      responses: responses(a.schema, ['200', '201'], a.types),
    });
  }
  return ops;
}
