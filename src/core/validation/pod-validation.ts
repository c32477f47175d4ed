// PodSpec and PodTemplateSpec validation (core/validation ValidatePodSpec and helpers, v1.23),
// covering what people get wrong: containers, ports, env, mounts, volumes, resources, policies.
import { type FieldError, child, duplicate, forbidden, index, invalid, key, notFound, notSupported, required, IS_NEGATIVE } from './errors';
import { validateAnnotations, validateLabels } from './meta';
import { isConfigMapKey, isDNS1123Label, isDNS1123Subdomain, isEnvVarName, isQualifiedName, isValidLabelValue, isValidPortName, isValidPortNum, inclusiveRangeError } from './names';
import { VOLUME_SOURCES } from './pod-defaults';
import { QUANTITY_REGEX_ERROR, compareQuantity, formatQuantity, isNegative, parseQuantity } from './quantity';

type Obj = Record<string, any>;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? x : {})) : [];
}

export function dns1123Label(value: string, field: string): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(field, value, m));
}

/** ValidatePortNumOrName for an intstr (targetPort, probe ports). */
export function validatePortNumOrName(port: unknown, field: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(field, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(field, port, m));
  return [];
}

function validateContainerPorts(ports: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  list(ports).forEach((p, i) => {
    const ip = index(path, i);
    if (p.name) {
      const msgs = isValidPortName(String(p.name));
      if (msgs.length) for (const m of msgs) errs.push(invalid(child(ip, 'name'), p.name, m));
      else if (names.has(p.name)) errs.push(duplicate(child(ip, 'name'), p.name));
      else names.add(p.name);
    }
    if (!p.containerPort) errs.push(required(child(ip, 'containerPort')));
    else for (const m of isValidPortNum(p.containerPort)) errs.push(invalid(child(ip, 'containerPort'), p.containerPort, m));
    if (p.hostPort) for (const m of isValidPortNum(p.hostPort)) errs.push(invalid(child(ip, 'hostPort'), p.hostPort, m));
    if (!p.protocol) errs.push(required(child(ip, 'protocol')));
    else if (!PROTOCOLS.includes(p.protocol)) errs.push(notSupported(child(ip, 'protocol'), p.protocol, PROTOCOLS));
  });
  return errs;
}

function validateKeyRef(ref: Obj, path: string, configKey: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.key) errs.push(required(child(path, 'key')));
  else if (configKey) for (const m of isConfigMapKey(String(ref.key))) errs.push(invalid(child(path, 'key'), ref.key, m));
  if (!ref.name) errs.push(required(child(path, 'name')));
  return errs;
}

function validateEnv(env: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(env).forEach((e, i) => {
    const ip = index(path, i);
    if (!e.name) errs.push(required(child(ip, 'name')));
    else for (const m of isEnvVarName(String(e.name))) errs.push(invalid(child(ip, 'name'), e.name, m));
    const vf = e.valueFrom;
    if (!vf || typeof vf !== 'object') return;
    const vp = child(ip, 'valueFrom');
    const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((s) => vf[s]);
    if (vf.configMapKeyRef) errs.push(...validateKeyRef(vf.configMapKeyRef, child(vp, 'configMapKeyRef'), true));
    if (vf.secretKeyRef) errs.push(...validateKeyRef(vf.secretKeyRef, child(vp, 'secretKeyRef'), true));
    if (vf.fieldRef && !vf.fieldRef.fieldPath) errs.push(required(child(vp, 'fieldRef', 'fieldPath')));
    if (sources.length === 0) {
      errs.push(invalid(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    } else if (e.value) {
      errs.push(invalid(vp, '', 'may not be specified when `value` is not empty'));
    } else if (sources.length > 1) {
      errs.push(invalid(vp, '', 'may not have more than one field specified at a time'));
    }
  });
  return errs;
}

function validateVolumeMounts(mounts: unknown, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const points = new Set<string>();
  list(mounts).forEach((m, i) => {
    const ip = index(path, i);
    if (!m.name) errs.push(required(child(ip, 'name')));
    if (!volumes.has(m.name)) errs.push(notFound(child(ip, 'name'), m.name ?? ''));
    if (!m.mountPath) errs.push(required(child(ip, 'mountPath')));
    if (points.has(m.mountPath)) errs.push(invalid(child(ip, 'mountPath'), m.mountPath, 'must be unique'));
    points.add(m.mountPath);
  });
  return errs;
}

function validateProbe(probe: unknown, path: string): FieldError[] {
  if (!probe || typeof probe !== 'object') return [];
  const p = probe as Obj;
  const errs: FieldError[] = [];
  const handlers = ['exec', 'httpGet', 'tcpSocket', 'grpc'].filter((h) => p[h]);
  if (handlers.length === 0) errs.push(required(path, 'must specify a handler type'));
  else if (handlers.length > 1) errs.push(forbidden(child(path, handlers[1]), 'may not specify more than 1 handler type'));
  if (p.httpGet) errs.push(...validatePortNumOrName(p.httpGet.port, child(path, 'httpGet', 'port')));
  if (p.tcpSocket) errs.push(...validatePortNumOrName(p.tcpSocket.port, child(path, 'tcpSocket', 'port')));
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    if (typeof p[f] === 'number' && p[f] < 0) errs.push(invalid(child(path, f), p[f], IS_NEGATIVE));
  }
  return errs;
}

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

function validateContainerResourceName(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) errs.push(invalid(path, name, 'must be a standard resource for containers'));
  } else if (!name.includes('kubernetes.io/')) {
    // Extended resources: domain-prefixed, and `requests.<name>` must still be a qualified name.
    if (name.startsWith('requests.') || isQualifiedName(`requests.${name}`).length > 0) {
      errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
    }
  }
  return errs;
}

/** ValidateResourceRequirements: names, non-negative quantities, requests <= limits. */
export function validateResources(res: unknown, path: string): FieldError[] {
  if (!res || typeof res !== 'object') return [];
  const r = res as Obj;
  const errs: FieldError[] = [];
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits: Obj = r.limits && typeof r.limits === 'object' ? r.limits : {};
  const requests: Obj = r.requests && typeof r.requests === 'object' ? r.requests : {};
  for (const [name, raw] of Object.entries(limits)) checkResourceQuantity(name, raw, key(limPath, name), errs);
  for (const [name, raw] of Object.entries(requests)) {
    const q = checkResourceQuantity(name, raw, key(reqPath, name), errs);
    const lim = parseQuantity(limits[name]);
    const overcommit = !name.startsWith('hugepages-') && (!name.includes('/') || name.includes('kubernetes.io/'));
    if (q && lim) {
      if (!overcommit && compareQuantity(q, lim) !== 0) errs.push(invalid(reqPath, formatQuantity(q), `must be equal to ${name} limit`));
      else if (compareQuantity(q, lim) > 0) errs.push(invalid(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit`));
    } else if (q && limits[name] === undefined && !overcommit) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

/** One limit or request: its resource name and its quantity (a module function: see decision 0048 on closures). */
function checkResourceQuantity(name: string, raw: unknown, p: string, errs: FieldError[]): ReturnType<typeof parseQuantity> {
  errs.push(...validateContainerResourceName(name, p));
  const q = parseQuantity(raw);
  if (!q) errs.push(invalid(p, raw, QUANTITY_REGEX_ERROR));
  else if (isNegative(q)) errs.push(invalid(p, formatQuantity(q), IS_NEGATIVE));
  return q;
}

function validatePullPolicy(policy: unknown, path: string): FieldError[] {
  if (!policy) return [required(path)];
  const ok = ['Always', 'IfNotPresent', 'Never'];
  return ok.includes(String(policy)) ? [] : [notSupported(path, policy, ok)];
}

function validateContainer(c: Obj, ip: string, volumes: Set<string>, init: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.image) errs.push(required(child(ip, 'image')));
  if (init) {
    for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (c[f]) errs.push(invalid(child(ip, f), c[f], 'must not be set for init containers'));
    }
  } else {
    errs.push(...validateProbe(c.livenessProbe, child(ip, 'livenessProbe')));
    if (c.livenessProbe && typeof c.livenessProbe.successThreshold === 'number' && c.livenessProbe.successThreshold !== 1) {
      errs.push(invalid(child(ip, 'livenessProbe', 'successThreshold'), c.livenessProbe.successThreshold, 'must be 1'));
    }
    errs.push(...validateProbe(c.startupProbe, child(ip, 'startupProbe')));
    errs.push(...validateProbe(c.readinessProbe, child(ip, 'readinessProbe')));
  }
  errs.push(...validateContainerPorts(c.ports, child(ip, 'ports')));
  errs.push(...validateEnv(c.env, child(ip, 'env')));
  errs.push(...validateVolumeMounts(c.volumeMounts, volumes, child(ip, 'volumeMounts')));
  errs.push(...validatePullPolicy(c.imagePullPolicy, child(ip, 'imagePullPolicy')));
  errs.push(...validateResources(c.resources, child(ip, 'resources')));
  return errs;
}

/** A container's name: required, a DNS label. */
function containerName(c: Obj, ip: string): FieldError[] {
  const np = child(ip, 'name');
  return c.name ? dns1123Label(String(c.name), np) : [required(np)];
}

/** Names are unique across containers, init containers and ephemeral containers of a pod. */
function uniqueName(c: Obj, ip: string, names: Set<string>): FieldError[] {
  if (names.has(c.name)) return [duplicate(child(ip, 'name'), c.name ?? '')];
  names.add(c.name);
  return [];
}

function validateContainers(containers: unknown, volumes: Set<string>, path: string, names: Set<string>, init: boolean): FieldError[] {
  if (!init && (!Array.isArray(containers) || containers.length === 0)) return [required(path)];
  const errs: FieldError[] = [];
  list(containers).forEach((c, i) => {
    const ip = index(path, i);
    errs.push(...containerName(c, ip), ...uniqueName(c, ip, names));
    errs.push(...validateContainer(c, ip, volumes, init));
  });
  return errs;
}

/** Fields an ephemeral container may not set (kube allows a list of fields; these are the rest), in struct order. */
const NOT_FOR_EPHEMERAL = ['ports', 'resources', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'];

const isSet = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'object' && Object.keys(v as object).length === 0);

/** validateEphemeralContainers: names unique across every container, a target that exists, no ports, probes or resources. */
function validateEphemeralContainers(containers: unknown, volumes: Set<string>, path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  list(containers).forEach((c, i) => {
    const ip = index(path, i);
    errs.push(...containerName(c, ip));
    if (!c.image) errs.push(required(child(ip, 'image')));
    errs.push(...validateEnv(c.env, child(ip, 'env')));
    errs.push(...validateVolumeMounts(c.volumeMounts, volumes, child(ip, 'volumeMounts')));
    errs.push(...validatePullPolicy(c.imagePullPolicy, child(ip, 'imagePullPolicy')));
    // Unlike a container's, the duplicate check comes after the common checks.
    errs.push(...uniqueName(c, ip, names));
    if (c.targetContainerName && !names.has(c.targetContainerName)) errs.push(notFound(child(ip, 'targetContainerName'), c.targetContainerName));
    for (const f of NOT_FOR_EPHEMERAL) if (isSet(c[f])) errs.push(forbidden(child(ip, f), 'cannot be set for an Ephemeral Container'));
    list(c.volumeMounts).forEach((m, j) => {
      for (const f of ['subPath', 'subPathExpr']) if (m[f]) errs.push(forbidden(child(index(child(ip, 'volumeMounts'), j), f), 'cannot be set for an Ephemeral Container'));
    });
  });
  return errs;
}

/** ValidateVolumes; returns the names of the volumes that validated (mounts may refer to those). */
function validateVolumes(volumes: unknown, path: string): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  list(volumes).forEach((v, i) => {
    const ip = index(path, i);
    const np = child(ip, 'name');
    const el: FieldError[] = [];
    const sources = VOLUME_SOURCES.filter((s) => v[s] !== undefined && v[s] !== null);
    if (sources.length === 0) el.push(required(ip, 'must specify a volume type'));
    else if (sources.length > 1) el.push(forbidden(child(ip, sources[1]), 'may not specify more than 1 volume type'));
    if (v.configMap && !v.configMap.name) el.push(required(child(ip, 'configMap', 'name')));
    if (v.secret && !v.secret.secretName) el.push(required(child(ip, 'secret', 'secretName')));
    if (v.persistentVolumeClaim && !v.persistentVolumeClaim.claimName) el.push(required(child(ip, 'persistentVolumeClaim', 'claimName')));
    if (v.hostPath && !v.hostPath.path) el.push(required(child(ip, 'hostPath', 'path')));
    if (!v.name) el.push(required(np));
    else el.push(...dns1123Label(String(v.name), np));
    if (names.has(v.name)) el.push(duplicate(np, v.name));
    if (el.length === 0) names.add(v.name);
    else errs.push(...el);
  });
  return { names, errs };
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** core.Toleration as %#v prints it (TolerationSeconds is a pointer: a stand-in address). */
export function goToleration(t: Obj): string {
  const secs = t.tolerationSeconds !== undefined && t.tolerationSeconds !== null ? '(*int64)(0xc000b1c0a8)' : '(*int64)(nil)';
  return (
    `core.Toleration{Key:${JSON.stringify(text(t.key))}, Operator:${JSON.stringify(text(t.operator))}, ` +
    `Value:${JSON.stringify(text(t.value))}, Effect:${JSON.stringify(text(t.effect))}, TolerationSeconds:${secs}}`
  );
}

/** corevalidation.ValidateTolerations (v1.23), shared by pods and RuntimeClass scheduling. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(tolerations).forEach((t, i) => {
    const ip = index(path, i);
    const [key, op, value, effect] = [text(t.key), text(t.operator), text(t.value), text(t.effect)];
    if (key) for (const m of isQualifiedName(key)) errs.push(invalid(child(ip, 'key'), key, m));
    if (!key && op !== 'Exists') {
      errs.push(invalid(child(ip, 'operator'), op, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && effect !== 'NoExecute') {
      errs.push(invalid(child(ip, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    if (op === '' || op === 'Equal') {
      const msgs = isValidLabelValue(value);
      if (msgs.length) errs.push(invalid(child(ip, 'operator'), value, msgs.join(';')));
    } else if (op === 'Exists') {
      // Upstream passes the whole toleration as the bad value here.
      if (value) errs.push(invalid(child(ip, 'operator'), t, "value must be empty when `operator` is 'Exists'", goToleration(t)));
    } else {
      errs.push(notSupported(child(ip, 'operator'), op, ['Equal', 'Exists']));
    }
    if (effect && !TAINT_EFFECTS.includes(effect)) errs.push(notSupported(child(ip, 'effect'), effect, TAINT_EFFECTS));
  });
  return errs;
}

/** ValidatePodSpec with field paths under `path` (`spec` or `spec.template.spec`). */
export function validatePodSpec(spec: unknown, path: string): FieldError[] {
  const s: Obj = spec && typeof spec === 'object' ? (spec as Obj) : {};
  const { names: vols, errs } = validateVolumes(s.volumes, child(path, 'volumes'));
  const containerNames = new Set<string>();
  errs.push(...validateContainers(s.containers, vols, child(path, 'containers'), containerNames, false));
  errs.push(...validateContainers(s.initContainers, vols, child(path, 'initContainers'), containerNames, true));
  errs.push(...validateEphemeralContainers(s.ephemeralContainers, vols, child(path, 'ephemeralContainers'), containerNames));
  const rp = child(path, 'restartPolicy');
  if (!s.restartPolicy) errs.push(required(rp));
  else if (!['Always', 'OnFailure', 'Never'].includes(s.restartPolicy)) errs.push(notSupported(rp, s.restartPolicy, ['Always', 'OnFailure', 'Never']));
  const dp = child(path, 'dnsPolicy');
  const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (!s.dnsPolicy) errs.push(required(dp));
  else if (!dnsPolicies.includes(s.dnsPolicy)) errs.push(notSupported(dp, s.dnsPolicy, dnsPolicies));
  errs.push(...validateLabels(s.nodeSelector, child(path, 'nodeSelector')));
  if (s.serviceAccountName) for (const m of isDNS1123Subdomain(String(s.serviceAccountName))) errs.push(invalid(child(path, 'serviceAccountName'), s.serviceAccountName, m));
  if (s.nodeName) for (const m of isDNS1123Subdomain(String(s.nodeName))) errs.push(invalid(child(path, 'nodeName'), s.nodeName, m));
  if (typeof s.activeDeadlineSeconds === 'number' && (s.activeDeadlineSeconds < 1 || s.activeDeadlineSeconds > 2147483647)) {
    errs.push(invalid(child(path, 'activeDeadlineSeconds'), s.activeDeadlineSeconds, inclusiveRangeError(1, 2147483647)));
  }
  if (s.hostname) errs.push(...dns1123Label(String(s.hostname), child(path, 'hostname')));
  if (s.subdomain) errs.push(...dns1123Label(String(s.subdomain), child(path, 'subdomain')));
  errs.push(...validateTolerations(s.tolerations, child(path, 'tolerations')));
  if (typeof s.terminationGracePeriodSeconds === 'number' && s.terminationGracePeriodSeconds < 0) {
    errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), s.terminationGracePeriodSeconds, IS_NEGATIVE));
  }
  if (s.preemptionPolicy && !['Never', 'PreemptLowerPriority'].includes(s.preemptionPolicy)) {
    errs.push(notSupported(child(path, 'preemptionPolicy'), s.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
  return errs;
}

/** ValidatePodTemplateSpec: note upstream reports template labels at `<path>.labels` (no `metadata`). */
export function validatePodTemplateSpec(template: unknown, path: string): FieldError[] {
  const t: Obj = template && typeof template === 'object' ? (template as Obj) : {};
  const meta: Obj = t.metadata && typeof t.metadata === 'object' ? t.metadata : {};
  const errs = validateLabels(meta.labels, child(path, 'labels'));
  errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
  errs.push(...validatePodSpec(t.spec, child(path, 'spec')));
  if (Array.isArray(t.spec?.ephemeralContainers) && t.spec.ephemeralContainers.length > 0) {
    errs.push(forbidden(child(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}
