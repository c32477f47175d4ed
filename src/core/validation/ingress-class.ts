// networking.k8s.io/v1 IngressClass defaults and validation (v1.23: pkg/apis/networking/v1
// SetDefaults_IngressClass; pkg/apis/networking/validation ValidateIngressClass[Update]). The
// namespaced parameters (scope/namespace) are GA in v1.23, so they are always checked.
import { type FieldError, child, forbidden, invalid, notSupported, required, tooLong } from './errors';
import type { KindRules } from './kind-rules';
import { utf8Length, validateImmutable } from './meta';
import { isDNS1123Label, isDNS1123Subdomain, isValidPathSegmentName, regexError } from './names';
import { isObj, isSet, type Obj } from './values';



const MAX_CONTROLLER_LENGTH = 250;
/** RFC 3986 path characters (apimachinery's httpPathFmt). */
const HTTP_PATH_FMT = String.raw`[A-Za-z0-9/\-._~%!$&'()*+,;=:]+`;
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);
const SCOPES = ['Cluster', 'Namespace'];

function defaults(ic: Obj): void {
  const params = isObj(ic.spec) ? ic.spec.parameters : undefined;
  // Parameters without a scope refer to a cluster-scoped object, as they did before scope existed.
  if (isObj(params) && !isSet(params.scope)) params.scope = 'Cluster';
}

/** IsDomainPrefixedPath: `<dns subdomain>/<http path>`, e.g. `example.com/ingress-nginx`. */
function validateDomainPrefixedPath(value: string, path: string): FieldError[] {
  if (!value) return [required(path)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? value : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (slash < 0 || !host || !rest) return [invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((m) => invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/** The TypedLocalObjectReference part: apiGroup (when given), kind and name. */
function validateReference(params: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(params.apiGroup)) {
    const group = String(params.apiGroup);
    for (const m of isDNS1123Subdomain(group)) errs.push(invalid(child(path, 'apiGroup'), group, m));
  }
  for (const f of ['kind', 'name']) {
    const v = typeof params[f] === 'string' ? params[f] : '';
    if (!v) errs.push(required(child(path, f), `${f} is required`));
    else for (const m of isValidPathSegmentName(v)) errs.push(invalid(child(path, f), v, m));
  }
  return errs;
}

function validateParameters(params: unknown, path: string): FieldError[] {
  if (!isObj(params)) return [];
  const errs = validateReference(params, path);
  if (!isSet(params.scope)) return [...errs, required(child(path, 'scope'))];
  const scope = String(params.scope);
  if (!SCOPES.includes(scope)) return [...errs, notSupported(child(path, 'scope'), scope, SCOPES)];
  const nsPath = child(path, 'namespace');
  if (scope === 'Namespace') {
    if (!isSet(params.namespace)) errs.push(required(nsPath, "`parameters.scope` is set to 'Namespace'"));
    else for (const m of isDNS1123Label(String(params.namespace))) errs.push(invalid(nsPath, params.namespace, m));
  } else if (isSet(params.namespace)) {
    errs.push(forbidden(nsPath, "`parameters.scope` is set to 'Cluster'"));
  }
  return errs;
}

function validate(ic: Obj): FieldError[] {
  const spec: Obj = isObj(ic.spec) ? ic.spec : {};
  const controller = typeof spec.controller === 'string' ? spec.controller : '';
  const errs: FieldError[] = [];
  // Go's len() counts bytes.
  if (utf8Length(controller) > MAX_CONTROLLER_LENGTH) errs.push(tooLong('spec.controller', MAX_CONTROLLER_LENGTH));
  errs.push(...validateDomainPrefixedPath(controller, 'spec.controller'));
  errs.push(...validateParameters(spec.parameters, 'spec.parameters'));
  return errs;
}

/** The controller cannot change; everything else is validated as on create. */
function validateUpdate(ic: Obj, old: Obj): FieldError[] {
  const errs = validateImmutable(ic.spec?.controller ?? '', old.spec?.controller ?? '', 'spec.controller');
  return [...errs, ...validate(ic)];
}

export const ingressClassRules: KindRules = { defaults, validateCreate: validate, validateUpdate };
