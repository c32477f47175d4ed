// Swagger 2.0 path items from the OpenAPI 3 operations of openapi-operations.ts: the request body
// becomes a `body` parameter, response content becomes `schema` plus `produces`, parameters carry
// their type inline, and each operation gets kube's `consumes`, `schemes` and `tags`. kubectl
// 1.23 reads these: its dry-run support check looks for an inline `dryRun` query parameter on the
// PATCH operation tagged with the kind's `x-kubernetes-group-version-kind`.
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/**
 * Parameters v1.23 does not list with its default feature gates: `fieldValidation` is behind the
 * alpha ServerSideFieldValidation gate, `sendInitialEvents` came in 1.27.
 */
const NOT_IN_V1_23 = new Set(['fieldValidation', 'sendInitialEvents']);

const CUSTOM_CONSUMES = ['application/json', 'application/yaml'];
/** PATCH bodies in the order kube's installer (and its CRD builder) lists them. */
const PATCH_CONSUMES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
const CUSTOM_PATCH_CONSUMES = PATCH_CONSUMES.filter((t) => t !== 'application/strategic-merge-patch+json');

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** kube's ToValidOperationID: drops what is not a letter, `_` or (past the start) a digit, capitalising the letter after a drop. */
function validOperationId(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    const keep = /\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch));
    if (keep) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
    i += ch.length;
  }
  return out;
}

/** The operation's tag as kube's GetOperationIDAndTags derives it from the path: `core_v1`, `apps_v1`, `rbacAuthorization_v1`. */
export function operationTag(path: string): string {
  let parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts[0] === 'api') parts = ['apis', 'core', ...parts.slice(1)];
  if (parts.length >= 2 && parts[0] === 'apis') {
    const group = parts[1].endsWith('.k8s.io') ? parts[1].slice(0, -'.k8s.io'.length) : parts[1];
    let tag = validOperationId(group, false);
    if (parts.length > 2) tag += `_${validOperationId(parts[2], false)}`;
    return tag;
  }
  return validOperationId(parts[0] ?? '', false);
}

/** A v3 parameter (`schema: {type}`) as a v2 non-body parameter, keys in Go's spec.Parameter order. */
function v2Parameter(p: Json): Json {
  const schema = isObject(p.schema) ? p.schema : {};
  const out: Json = {};
  if (schema.uniqueItems === true) out.uniqueItems = true;
  if (typeof schema.type === 'string') out.type = schema.type;
  if (typeof p.description === 'string') out.description = p.description;
  out.name = p.name;
  out.in = p.in;
  if (p.required === true) out.required = true;
  return out;
}

/** Parameters sorted by name, then location (kube-openapi sorts them the same way). */
function sortParameters(params: Json[]): Json[] {
  return params.sort((a, b) => {
    const an = String(a.name);
    const bn = String(b.name);
    if (an !== bn) return an < bn ? -1 : 1;
    const ai = String(a.in);
    const bi = String(b.in);
    return ai < bi ? -1 : ai > bi ? 1 : 0;
  });
}

function sortedKeys(value: unknown): unknown {
  return isObject(value) ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, value[k]])) : value;
}

function firstSchema(content: unknown): Json | undefined {
  if (!isObject(content)) return undefined;
  for (const media of Object.values(content)) {
    if (isObject(media) && isObject(media.schema)) return media.schema;
  }
  return undefined;
}

function v2Operation(op: Json, path: string, method: string, custom: boolean): Json {
  const params: Json[] = [];
  const body = isObject(op.requestBody) ? op.requestBody : undefined;
  if (body) {
    const schema = firstSchema(body.content);
    params.push({ name: 'body', in: 'body', ...(body.required === true ? { required: true } : {}), ...(schema ? { schema } : {}) });
  }
  for (const p of Array.isArray(op.parameters) ? (op.parameters as Json[]) : []) {
    if (!NOT_IN_V1_23.has(String(p.name))) params.push(v2Parameter(p));
  }

  const produces: string[] = [];
  const responses: Json = {};
  for (const [code, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
    if (!isObject(response)) continue;
    const out: Json = { description: response.description };
    const schema = firstSchema(response.content);
    if (schema) out.schema = schema;
    if (isObject(response.content)) for (const media of Object.keys(response.content)) if (!produces.includes(media)) produces.push(media);
    responses[code] = out;
  }

  let consumes: string[];
  if (method === 'patch' && op['x-kubernetes-action'] === 'patch') consumes = custom ? CUSTOM_PATCH_CONSUMES : PATCH_CONSUMES;
  else consumes = custom ? CUSTOM_CONSUMES : ['*/*'];

  const out: Json = { consumes, produces, schemes: ['https'], tags: [operationTag(path)], operationId: op.operationId };
  if (params.length) out.parameters = sortParameters(params);
  out.responses = responses;
  // Extension objects keyed as a Go map writes them (the aggregated spec went through one).
  for (const key of Object.keys(op).sort()) if (key.startsWith('x-')) out[key] = sortedKeys(op[key]);
  return out;
}

/** Converts the v3 path items of one resource into v2 path items. */
export function toV2Paths(v3Paths: Record<string, Json>, custom: boolean): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(v3Paths)) {
    const v2: Json = {};
    for (const method of METHODS) {
      const op = item[method];
      if (isObject(op)) v2[method] = v2Operation(op, path, method, custom);
    }
    if (Array.isArray(item.parameters)) {
      v2.parameters = sortParameters((item.parameters as Json[]).filter((p) => !NOT_IN_V1_23.has(String(p.name))).map(v2Parameter));
    }
    out[path] = v2;
  }
  return out;
}
