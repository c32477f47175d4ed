// flowcontrol.apiserver.k8s.io FlowSchema and PriorityLevelConfiguration (v1beta1 and v1beta2 share
// one internal type and one validation) as kube-apiserver v1.23 defaults and validates them:
// pkg/apis/flowcontrol/v1beta{1,2}/defaults.go and pkg/apis/flowcontrol/validation/validation.go
// (ValidateFlowSchema[Update|StatusUpdate], ValidatePriorityLevelConfiguration[Update|StatusUpdate]).
// Values may be null or missing anywhere; they are read as the Go zero value they decode to.
import { type FieldError, child, duplicate, forbidden, index, invalid, notSupported, required } from './errors';
import { goStringSlice } from './gofmt';
import type { KindRules } from './kind-rules';
import { isDNS1123Label, isDNS1123Subdomain } from './names';
import { isObj, objs as structs, str, type Obj } from './values';
import {
  num,
  strings,
  FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE,
  NAME_EXEMPT,
  goFlowSchemaSpec,
  goDistinguisher,
  goPriorityLevelSpec,
  canonFlowSchemaSpec,
  canonPriorityLevelSpec,
  MANDATORY_FLOW_SCHEMA_SPECS,
  MANDATORY_PRIORITY_LEVEL_SPECS,
  hasOwn,
} from './flowcontrol-shapes';

const FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE = 1000;
const DEFAULT_ASSURED_CONCURRENCY_SHARES = 30;
const DEFAULT_HAND_SIZE = 8;
const DEFAULT_QUEUES = 64;
const DEFAULT_QUEUE_LENGTH_LIMIT = 50;
const MAX_QUEUES = 10 * 1000 * 1000;
/** shufflesharding.MaxHashBits */
const MAX_HASH_BITS = 60;

const NAME_ALL = '*';

// sets.String.List() order (sorted).
const SUPPORTED_DISTINGUISHER_METHODS = ['ByNamespace', 'ByUser'];
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const SUPPORTED_SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const SUPPORTED_PRIORITY_LEVEL_ENABLEMENT = ['Exempt', 'Limited'];
const SUPPORTED_LIMIT_RESPONSE_TYPES = ['Queue', 'Reject'];

const NS_ERR_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

// ---------------------------------------------------------------------------------------------
// Defaults (SetDefaults_FlowSchemaSpec, SetDefaults_LimitedPriorityLevelConfiguration,
// SetDefaults_QueuingConfiguration): a zero (or missing) value gets the default.

function defaultFlowSchema(fs: Obj): void {
  if (!isObj(fs)) return;
  // FlowSchemaSpec is a struct value, so Go defaults it even when the client sent no spec.
  if (fs.spec === undefined || fs.spec === null) fs.spec = {};
  if (isObj(fs.spec) && num(fs.spec.matchingPrecedence) === 0) fs.spec.matchingPrecedence = FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE;
}

function defaultPriorityLevelConfiguration(pl: Obj): void {
  if (!isObj(pl) || !isObj(pl.spec)) return;
  const limited = pl.spec.limited;
  if (!isObj(limited)) return;
  if (num(limited.assuredConcurrencyShares) === 0) limited.assuredConcurrencyShares = DEFAULT_ASSURED_CONCURRENCY_SHARES;
  const queuing = isObj(limited.limitResponse) ? limited.limitResponse.queuing : undefined;
  if (!isObj(queuing)) return;
  if (num(queuing.handSize) === 0) queuing.handSize = DEFAULT_HAND_SIZE;
  if (num(queuing.queues) === 0) queuing.queues = DEFAULT_QUEUES;
  if (num(queuing.queueLengthLimit) === 0) queuing.queueLengthLimit = DEFAULT_QUEUE_LENGTH_LIMIT;
}

// ---------------------------------------------------------------------------------------------
// FlowSchema

function validateServiceAccountSubject(sa: unknown, path: string): FieldError[] {
  if (!isObj(sa)) return [required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  const errs: FieldError[] = [];
  const name = str(sa.name);
  if (!name) errs.push(required(child(path, 'name')));
  else if (name !== NAME_ALL) for (const m of isDNS1123Subdomain(name)) errs.push(invalid(child(path, 'name'), name, m));
  const ns = str(sa.namespace);
  if (ns) for (const m of isDNS1123Label(ns)) errs.push(invalid(child(path, 'namespace'), ns, m));
  else errs.push(required(child(path, 'namespace'), 'must specify namespace for service account'));
  return errs;
}

function validateNamedSubject(v: unknown, path: string, what: 'user' | 'group', kind: string): FieldError[] {
  if (!isObj(v)) return [required(path, `${what} is required when subject kind is '${kind}'`)];
  return str(v.name) ? [] : [required(child(path, 'name'))];
}

const FORBID_USER = (path: string) => forbidden(child(path, 'user'), "user is forbidden when subject kind is not 'User'");
const FORBID_GROUP = (path: string) => forbidden(child(path, 'group'), "group is forbidden when subject kind is not 'Group'");
const FORBID_SA = (path: string) => forbidden(child(path, 'serviceAccount'), "serviceAccount is forbidden when subject kind is not 'ServiceAccount'");

function validateSubject(s: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  // A pointer member is set when the JSON had an object there (null decodes to nil).
  const set = (v: unknown) => isObj(v);
  const kind = str(s.kind);
  switch (kind) {
    case 'ServiceAccount':
      errs.push(...validateServiceAccountSubject(s.serviceAccount, child(path, 'serviceAccount')));
      if (set(s.user)) errs.push(FORBID_USER(path));
      if (set(s.group)) errs.push(FORBID_GROUP(path));
      break;
    case 'User':
      errs.push(...validateNamedSubject(s.user, child(path, 'user'), 'user', 'User'));
      if (set(s.serviceAccount)) errs.push(FORBID_SA(path));
      if (set(s.group)) errs.push(FORBID_GROUP(path));
      break;
    case 'Group':
      errs.push(...validateNamedSubject(s.group, child(path, 'group'), 'group', 'Group'));
      if (set(s.serviceAccount)) errs.push(FORBID_SA(path));
      if (set(s.user)) errs.push(FORBID_USER(path));
      break;
    default:
      errs.push(notSupported(child(path, 'kind'), kind, SUPPORTED_SUBJECT_KINDS));
  }
  return errs;
}

function validateVerbs(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalid(path, verbs, "if '*' is present, must not specify other verbs", goStringSlice(verbs))] : [];
  if (!verbs.every((v) => SUPPORTED_VERBS.includes(v))) return [notSupported(path, verbs, SUPPORTED_VERBS, goStringSlice(verbs))];
  return [];
}

/** ValidateNonResourceURLPath */
function validateNonResourceURLPath(p: string, path: string): FieldError | undefined {
  if (p.length === 0) return invalid(path, p, 'must not be empty');
  if (p === '/') return undefined;
  if (!p.startsWith('/')) return invalid(path, p, 'must start with slash');
  if (p.includes(' ')) return invalid(path, p, 'must not contain white-space');
  if (p.includes('//')) return invalid(path, p, 'must not contain double slash');
  const wildcards = p.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && p.slice(-2) !== '/*')) return invalid(path, p, 'wildcard can only do suffix matching');
  return undefined;
}

function validateNonResourceRule(rule: Obj, path: string): FieldError[] {
  const errs = validateVerbs(strings(rule.verbs) ?? [], child(path, 'verbs'));
  const urls = strings(rule.nonResourceURLs) ?? [];
  const urlsPath = child(path, 'nonResourceURLs');
  if (urls.length === 0) errs.push(required(urlsPath, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) errs.push(invalid(urlsPath, urls, "if '*' is present, must not specify other non-resource URLs", goStringSlice(urls)));
  } else {
    urls.forEach((u, i) => {
      const e = validateNonResourceURLPath(u, index(urlsPath, i));
      if (e) errs.push(e);
    });
  }
  return errs;
}

function validateResourceRule(rule: Obj, path: string): FieldError[] {
  const errs = validateVerbs(strings(rule.verbs) ?? [], child(path, 'verbs'));
  const groups = strings(rule.apiGroups) ?? [];
  if (groups.length === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && groups.includes('*')) {
    errs.push(invalid(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other api groups", goStringSlice(groups)));
  }
  const resources = strings(rule.resources) ?? [];
  if (resources.length === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*')) {
    errs.push(invalid(child(path, 'resources'), resources, "if '*' is present, must not specify other resources", goStringSlice(resources)));
  }
  const namespaces = strings(rule.namespaces) ?? [];
  const nsPath = child(path, 'namespaces');
  if (namespaces.length === 0 && rule.clusterScope !== true) {
    errs.push(required(nsPath, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.includes('*')) {
    if (namespaces.length > 1) errs.push(invalid(nsPath, namespaces, "if '*' is present, must not specify other namespaces", goStringSlice(namespaces)));
  } else {
    namespaces.forEach((ns, i) => {
      for (const m of isDNS1123Label(ns)) errs.push(invalid(index(nsPath, i), ns, NS_ERR_INTRO + m));
    });
  }
  return errs;
}

function validatePolicyRulesWithSubjects(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = structs(rule.subjects);
  if (subjects.length > 0) subjects.forEach((s, i) => errs.push(...validateSubject(s, index(child(path, 'subjects'), i))));
  else errs.push(required(child(path, 'subjects'), 'subjects must contain at least one value'));
  const resourceRules = structs(rule.resourceRules);
  const nonResourceRules = structs(rule.nonResourceRules);
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  resourceRules.forEach((r, i) => errs.push(...validateResourceRule(r, index(child(path, 'resourceRules'), i))));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourceRule(r, index(child(path, 'nonResourceRules'), i))));
  return errs;
}

function validateFlowSchemaSpec(name: string, spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mpPath = child(path, 'matchingPrecedence');
  const mp = num(spec.matchingPrecedence);
  if (mp <= 0) errs.push(invalid(mpPath, mp, 'must be a positive value'));
  if (mp > FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE) errs.push(invalid(mpPath, mp, `must not be greater than ${FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE}`));
  if (mp === 1 && name !== NAME_EXEMPT) errs.push(invalid(mpPath, mp, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const dm = spec.distinguisherMethod;
  if (isObj(dm) && !SUPPORTED_DISTINGUISHER_METHODS.includes(str(dm.type))) {
    // The value is the whole (dereferenced) FlowDistinguisherMethod.
    errs.push(notSupported(child(path, 'distinguisherMethod', 'type'), dm, SUPPORTED_DISTINGUISHER_METHODS, goDistinguisher(dm)));
  }
  const plcName = str(isObj(spec.priorityLevelConfiguration) ? spec.priorityLevelConfiguration.name : undefined);
  const plcPath = child(path, 'priorityLevelConfiguration', 'name');
  if (plcName) for (const m of isDNS1123Subdomain(plcName)) errs.push(invalid(plcPath, plcName, m));
  else errs.push(required(plcPath, 'must reference a priority level'));
  structs(spec.rules).forEach((r, i) => errs.push(...validatePolicyRulesWithSubjects(r, index(child(path, 'rules'), i))));
  return errs;
}

/** ValidateFlowSchemaStatus / ValidatePriorityLevelConfigurationStatus (the same shape). */
function validateConditions(status: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const conditions = structs(isObj(status) ? status.conditions : undefined);
  conditions.forEach((c, i) => {
    const type = str(c.type);
    const cPath = index(child(path, 'conditions'), i);
    if (seen.has(type)) errs.push(duplicate(child(cPath, 'type'), type));
    seen.add(type);
    if (!type) errs.push(required(child(cPath, 'type'), 'must not be empty'));
  });
  return errs;
}

function validateFlowSchema(fs: Obj): FieldError[] {
  const name = str(isObj(fs?.metadata) ? fs.metadata.name : undefined);
  const spec: Obj = isObj(fs?.spec) ? fs.spec : {};
  const errs = validateFlowSchemaSpec(name, spec, 'spec');
  if (hasOwn(MANDATORY_FLOW_SCHEMA_SPECS, name) && canonFlowSchemaSpec(spec) !== MANDATORY_FLOW_SCHEMA_SPECS[name]) {
    errs.push(invalid('spec', spec, `spec of '${name}' must equal the fixed value`, goFlowSchemaSpec(spec)));
  }
  errs.push(...validateConditions(fs?.status, 'status'));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// PriorityLevelConfiguration

/** shufflesharding.RequiredEntropyBits: ceil(log2(deckSize) * handSize). */
function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

function validateQueuing(queuing: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const qll = num(queuing.queueLengthLimit);
  if (qll <= 0) errs.push(invalid(child(path, 'queueLengthLimit'), qll, 'must be positive'));
  const queues = num(queuing.queues);
  if (queues <= 0) errs.push(invalid(child(path, 'queues'), queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(invalid(child(path, 'queues'), queues, `must not be greater than ${MAX_QUEUES}`));
  const handSize = num(queuing.handSize);
  const hsPath = child(path, 'handSize');
  if (handSize <= 0) errs.push(invalid(hsPath, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalid(hsPath, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    errs.push(invalid(hsPath, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

function validateLimitResponse(lr: Obj, path: string): FieldError[] {
  const type = str(lr.type);
  switch (type) {
    case 'Reject':
      return isObj(lr.queuing) ? [forbidden(child(path, 'queuing'), 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      if (!isObj(lr.queuing)) return [required(child(path, 'queuing'), 'must not be empty if limited.limitResponse.type is Limited')];
      return validateQueuing(lr.queuing, child(path, 'queuing'));
    default:
      return [notSupported(child(path, 'type'), type, SUPPORTED_LIMIT_RESPONSE_TYPES)];
  }
}

function validateLimited(limited: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const shares = num(limited.assuredConcurrencyShares);
  if (shares <= 0) errs.push(invalid(child(path, 'assuredConcurrencyShares'), shares, 'must be positive'));
  errs.push(...validateLimitResponse(isObj(limited.limitResponse) ? limited.limitResponse : {}, child(path, 'limitResponse')));
  return errs;
}

function validatePriorityLevelSpec(spec: Obj, name: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if ((name === NAME_EXEMPT) !== (type === 'Exempt')) errs.push(invalid(child(path, 'type'), type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (type) {
    case 'Exempt':
      if (isObj(spec.limited)) errs.push(forbidden(child(path, 'limited'), 'must be nil if the type is not Limited'));
      break;
    case 'Limited':
      if (!isObj(spec.limited)) errs.push(required(child(path, 'limited'), 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec.limited, child(path, 'limited')));
      break;
    default:
      errs.push(notSupported(child(path, 'type'), type, SUPPORTED_PRIORITY_LEVEL_ENABLEMENT));
  }
  return errs;
}

function validatePriorityLevelConfiguration(pl: Obj): FieldError[] {
  const name = str(isObj(pl?.metadata) ? pl.metadata.name : undefined);
  const spec: Obj = isObj(pl?.spec) ? pl.spec : {};
  const errs = validatePriorityLevelSpec(spec, name, 'spec');
  if (hasOwn(MANDATORY_PRIORITY_LEVEL_SPECS, name) && canonPriorityLevelSpec(spec) !== MANDATORY_PRIORITY_LEVEL_SPECS[name]) {
    errs.push(invalid('spec', spec, `spec of '${name}' must equal the fixed value`, goPriorityLevelSpec(spec)));
  }
  errs.push(...validateConditions(pl?.status, 'status'));
  return errs;
}

// Updates validate the new object exactly as a create does (nothing is immutable); the status
// subresource validates only the status conditions.

export const flowSchemaRules: KindRules = {
  defaults: defaultFlowSchema,
  validateCreate: (obj) => validateFlowSchema(obj),
  validateUpdate: (obj, _old, subresource = '') => (subresource === 'status' ? validateConditions(obj?.status, 'status') : validateFlowSchema(obj)),
};

export const priorityLevelConfigurationRules: KindRules = {
  defaults: defaultPriorityLevelConfiguration,
  validateCreate: (obj) => validatePriorityLevelConfiguration(obj),
  validateUpdate: (obj, _old, subresource = '') =>
    subresource === 'status' ? validateConditions(obj?.status, 'status') : validatePriorityLevelConfiguration(obj),
};
