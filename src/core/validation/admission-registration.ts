// admissionregistration.k8s.io/v1 MutatingWebhookConfiguration and ValidatingWebhookConfiguration
// validation, as kube-apiserver v1.23 does it (pkg/apis/admissionregistration/validation:
// Validate{Mutating,Validating}WebhookConfiguration[Update]; the URL and service checks are
// k8s.io/apiserver/pkg/util/webhook's ValidateWebhookURL / ValidateWebhookService). Defaulting is
// done earlier by admission/webhooks/config-defaults.ts; Go skips every optional pointer that is
// nil, so a field that is missing (or null) here is never an error unless kube requires it.
import { goStringSlice } from './gofmt';
import { type FieldError, child, duplicate, index, invalid, notSupported, required } from './errors';
import type { KindRules, ValidationEnv } from './kind-rules';
import { parseGoURL, type GoURL } from './go-url';
import { validateLabelSelector } from './meta';
import { isDNS1035Label, isDNS1123Subdomain, isValidPortNum } from './names';
import { isObj, isSet, objs, str, strs, type Obj } from './values';


/** A []string as Go decodes it: a null item is the zero value "". */

/** AcceptedAdmissionReviewVersions (v1.17+). */
const REVIEW_VERSIONS = ['v1', 'v1beta1'];
// sets.String.List() order (sorted), which is how NotSupported lists them.
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const ALL_SIDE_EFFECTS = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
/** ValidateWebhookURL's hint on the scheme and host errors. */
const URL_FORM = '; desired format: https://host[/path]';

interface Options {
  requireNoSideEffects: boolean;
  requireRecognizedAdmissionReviewVersion: boolean;
  requireUniqueWebhookNames: boolean;
}

// ---- rules ----

/** validateResources (subresources allowed): the wildcard combinations that would overlap. */
function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(path));
  const resWithWildcardSub = new Set<string>(); // x/*
  const subWithWildcardRes = new Set<string>(); // */x
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(index(path, i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // Assigned, not or-ed, in upstream: only the last plain resource counts.
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resWithWildcardSub.has(res)) errs.push(invalid(index(path, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub)) errs.push(invalid(index(path, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resWithWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources", goStringSlice(resources)));
  if (singleWildcard && withoutSub) errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources", goStringSlice(resources)));
  return errs;
}

/** A list that is required and where '*' must stand alone (apiGroups, apiVersions). */
function validateWildcardList(list: string[], path: string, what: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list.length === 0) errs.push(required(path));
  if (list.length > 1 && list.includes('*')) errs.push(invalid(path, list, `if '*' is present, must not specify other ${what}`, goStringSlice(list)));
  return errs;
}

/** validateRuleWithOperations, then validateRule with subresources allowed. */
function validateRule(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = strs(rule.operations);
  const opsPath = child(path, 'operations');
  if (ops.length === 0) errs.push(required(opsPath));
  if (ops.length > 1 && ops.includes('*')) {
    // Operations are []OperationType, which %#v prints with the internal type's name.
    errs.push(invalid(opsPath, ops, "if '*' is present, must not specify other operations", goStringSlice(ops, 'admissionregistration.OperationType')));
  }
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(index(opsPath, i), op, OPERATIONS));
  });
  errs.push(...validateWildcardList(strs(rule.apiGroups), child(path, 'apiGroups'), 'API groups'));
  const versions = strs(rule.apiVersions);
  errs.push(...validateWildcardList(versions, child(path, 'apiVersions'), 'API versions'));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(index(child(path, 'apiVersions'), i)));
  });
  errs.push(...validateResources(strs(rule.resources), child(path, 'resources')));
  if (isSet(rule.scope) && !SCOPES.includes(str(rule.scope))) errs.push(notSupported(child(path, 'scope'), rule.scope, SCOPES));
  return errs;
}

// ---- names and review versions ----

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three segments. */
function validateHookName(name: string, path: string): FieldError[] {
  if (!name) return [required(path)];
  const msgs = isDNS1123Subdomain(name);
  if (msgs.length) return [invalid(path, name, msgs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateReviewVersions(versions: string[], requireRecognized: boolean, path: string): FieldError[] {
  if (versions.length === 0) return [required(path, `must specify one of ${REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(index(path, i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const m of isDNS1035Label(v)) errs.push(invalid(index(path, i), v, m));
  });
  if (requireRecognized && !versions.some((v) => REVIEW_VERSIONS.includes(v))) {
    errs.push(invalid(path, versions, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`, goStringSlice(versions)));
  }
  return errs;
}

// ---- clientConfig ----

/** ValidateWebhookURL(fldPath, url, forceHttps=true). */
function validateURL(raw: string, path: string, env: ValidationEnv): FieldError[] {
  let u: GoURL;
  try {
    u = parseGoURL(raw);
  } catch (e) {
    return [required(path, `url must be a valid URL: ${(e as Error).message}${URL_FORM}`)];
  }
  const errs: FieldError[] = [];
  // The host's own origin (the Service Worker's page) is answered in the tab, over no network.
  const local = u.scheme === 'http' && env.localWebhookOrigins?.includes(`http://${u.host}`);
  if (u.scheme !== 'https' && !local) errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (!u.host) errs.push(invalid(path, u.host, `host must be specified${URL_FORM}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment) errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery) errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * ValidateWebhookService. Upstream declares it (namespace, name, ...) but the admissionregistration
 * caller passes (Name, Namespace), so a missing namespace is reported on `service.name` and a
 * missing name on `service.namespace` (kubernetes/kubernetes#141353); kept for fidelity.
 */
function validateService(svc: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(svc.namespace)) errs.push(required(child(path, 'name'), 'service name is required'));
  if (!str(svc.name)) errs.push(required(child(path, 'namespace'), 'service namespace is required'));
  // A nil port is defaulted to 443 before validation.
  const port = typeof svc.port === 'number' ? svc.port : 443;
  const portMsgs = isValidPortNum(port);
  if (portMsgs.length) errs.push(invalid(child(path, 'port'), port, `port is not valid: ${portMsgs.join(', ')}`));
  if (!isSet(svc.path)) return errs;
  const p = str(svc.path);
  const pathField = child(path, 'path');
  if (p === '/' || p === '') return errs;
  if (p === '//') return [...errs, invalid(pathField, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(invalid(pathField, p, "must start with a '/'"));
  let check = p.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (!step) errs.push(invalid(pathField, p, `segment[${i}] may not be empty`));
    else for (const m of isDNS1123Subdomain(step)) errs.push(invalid(pathField, p, `segment[${i}]: ${m}`));
  });
  return errs;
}

function validateClientConfig(cc: Obj, path: string, env: ValidationEnv): FieldError[] {
  // URL and Service are pointers: "" and {} count as set, null does not.
  if (isSet(cc.url) === isSet(cc.service)) return [required(path, 'exactly one of url or service is required')];
  if (isSet(cc.url)) return validateURL(str(cc.url), child(path, 'url'), env);
  return validateService(isObj(cc.service) ? cc.service : {}, child(path, 'service'));
}

// ---- webhooks and configurations ----

/** validateMutatingWebhook / validateValidatingWebhook (they differ only in reinvocationPolicy). */
function validateWebhook(hook: Obj, mutating: boolean, opts: Options, path: string, env: ValidationEnv): FieldError[] {
  const errs = validateHookName(str(hook.name), child(path, 'name'));
  objs(hook.rules).forEach((rule, i) => errs.push(...validateRule(rule, index(child(path, 'rules'), i))));
  if (isSet(hook.failurePolicy) && !FAILURE_POLICIES.includes(hook.failurePolicy)) errs.push(notSupported(child(path, 'failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  if (isSet(hook.matchPolicy) && !MATCH_POLICIES.includes(hook.matchPolicy)) errs.push(notSupported(child(path, 'matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  const allowed = opts.requireNoSideEffects ? NO_SIDE_EFFECTS : ALL_SIDE_EFFECTS;
  if (!isSet(hook.sideEffects)) errs.push(required(child(path, 'sideEffects'), `must specify one of ${allowed.join(', ')}`));
  else if (!allowed.includes(hook.sideEffects)) errs.push(notSupported(child(path, 'sideEffects'), hook.sideEffects, allowed));
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout > 30 || timeout < 1)) errs.push(invalid(child(path, 'timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  errs.push(...validateLabelSelector(hook.namespaceSelector, child(path, 'namespaceSelector')));
  errs.push(...validateLabelSelector(hook.objectSelector, child(path, 'objectSelector')));
  if (mutating && isSet(hook.reinvocationPolicy) && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errs.push(notSupported(child(path, 'reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  errs.push(...validateClientConfig(isObj(hook.clientConfig) ? hook.clientConfig : {}, child(path, 'clientConfig'), env));
  return errs;
}

function validateConfiguration(cfg: Obj, mutating: boolean, opts: Options, env: ValidationEnv): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objs(cfg.webhooks).forEach((hook, i) => {
    const path = index('webhooks', i);
    errs.push(...validateWebhook(hook, mutating, opts, path, env));
    errs.push(...validateReviewVersions(strs(hook.admissionReviewVersions), opts.requireRecognizedAdmissionReviewVersion, child(path, 'admissionReviewVersions')));
    const name = str(hook.name);
    if (opts.requireUniqueWebhookNames && name) {
      if (names.has(name)) errs.push(duplicate(child(path, 'name'), name));
      names.add(name);
    }
  });
  return errs;
}

const CREATE_OPTIONS: Options = { requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true, requireUniqueWebhookNames: true };

/**
 * Validate*WebhookConfigurationUpdate: the create checks, each relaxed when the stored object
 * already broke it (side effects other than None/NoneOnDryRun, review versions none of which is
 * known, duplicate names), so such objects stay updatable.
 */
function updateOptions(old: Obj): Options {
  const hooks = objs(old.webhooks);
  return {
    requireNoSideEffects: hooks.every((h) => NO_SIDE_EFFECTS.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: hooks.every((h) => {
      const versions = strs(h.admissionReviewVersions);
      return versions.length === 0 || versions.some((v) => REVIEW_VERSIONS.includes(v));
    }),
    requireUniqueWebhookNames: new Set(hooks.map((h) => str(h.name))).size === hooks.length,
  };
}

function rules(mutating: boolean): KindRules {
  return {
    validateCreate: (obj, env = {}) => validateConfiguration(obj, mutating, CREATE_OPTIONS, env),
    validateUpdate: (obj, old, _subresource, env = {}) => validateConfiguration(obj, mutating, updateOptions(old), env),
  };
}

export const mutatingWebhookConfigurationRules: KindRules = rules(true);
export const validatingWebhookConfigurationRules: KindRules = rules(false);
