// Service defaults and validation (core/v1 SetDefaults_Service, the service registry's
// ClusterIP/ipFamily normalisation, and core/validation ValidateService[Update], v1.23).
import { type FieldError, duplicate, forbidden, index, invalid, notSupported, required } from './errors';
import { goStringSlice } from './gofmt';
import type { KindRules } from './kind-rules';
import { validateLabels } from './meta';
import { isDNS1123Label, isDNS1123Subdomain, isValidIP, isValidPortNum } from './names';
import { validatePortNumOrName } from './pod-validation';

type Obj = Record<string, any>;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

function ports(spec: Obj): Obj[] {
  return Array.isArray(spec.ports) ? spec.ports.map((p: unknown) => (p && typeof p === 'object' ? p : {})) : [];
}

function isHeadless(spec: Obj): boolean {
  return Array.isArray(spec.clusterIPs) && spec.clusterIPs[0] === 'None';
}

function serviceDefaults(svc: Obj): void {
  const spec: Obj = svc.spec && typeof svc.spec === 'object' ? svc.spec : (svc.spec = {});
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && typeof spec.sessionAffinityConfig?.clientIP?.timeoutSeconds !== 'number') {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  for (const p of ports(spec)) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if ((spec.type === 'NodePort' || spec.type === 'LoadBalancer') && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (spec.type !== 'ExternalName' && !spec.internalTrafficPolicy) spec.internalTrafficPolicy = 'Cluster';
  if (spec.type === 'LoadBalancer' && typeof spec.allocateLoadBalancerNodePorts !== 'boolean') spec.allocateLoadBalancerNodePorts = true;
  if (spec.type !== 'ExternalName') {
    // The registry keeps clusterIP and clusterIPs[0] in step and fills single-stack IPv4 families.
    if (spec.clusterIP && (!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0)) spec.clusterIPs = [spec.clusterIP];
    if (!spec.clusterIP && Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0) spec.clusterIP = spec.clusterIPs[0];
    if (!spec.ipFamilyPolicy) spec.ipFamilyPolicy = 'SingleStack';
    if (!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) spec.ipFamilies = ['IPv4'];
  }
}

function validateServicePort(sp: Obj, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (requireName && !sp.name) errs.push(required(`${path}.name`));
  else if (sp.name) {
    for (const m of isDNS1123Label(String(sp.name))) errs.push(invalid(`${path}.name`, sp.name, m));
    if (names.has(sp.name)) errs.push(duplicate(`${path}.name`, sp.name));
    else names.add(sp.name);
  }
  for (const m of isValidPortNum(sp.port)) errs.push(invalid(`${path}.port`, sp.port ?? 0, m));
  if (!sp.protocol) errs.push(required(`${path}.protocol`));
  else if (!PROTOCOLS.includes(sp.protocol)) errs.push(notSupported(`${path}.protocol`, sp.protocol, PROTOCOLS));
  errs.push(...validatePortNumOrName(sp.targetPort, `${path}.targetPort`));
  return errs;
}

function validateClusterIPs(spec: Obj): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errs: FieldError[] = [];
  const ips: string[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  if (spec.clusterIP) {
    if (ips.length === 0) errs.push(required('spec.clusterIPs'));
    else if (ips[0] !== spec.clusterIP) errs.push(invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`', goStringSlice(ips)));
  } else if (ips.length !== 0) {
    errs.push(invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified', goStringSlice(ips)));
  }
  const seen = new Set<string>();
  (Array.isArray(spec.ipFamilies) ? spec.ipFamilies : []).forEach((f: string, i: number) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(index('spec.ipFamilies', i), f, ['IPv4', 'IPv6']));
    if (seen.has(f)) errs.push(duplicate(index('spec.ipFamilies', i), f));
    seen.add(f);
  });
  const policies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
  if (spec.ipFamilyPolicy && !policies.includes(spec.ipFamilyPolicy)) errs.push(notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, policies));
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) errs.push(invalid('spec.clusterIPs', ips, "'None' must be the first and only value", goStringSlice(ips)));
      return;
    }
    if (!isValidIP(String(ip))) errs.push(invalid(index('spec.clusterIPs', i), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  return errs;
}

/** ValidateService (without metadata). */
export function validateService(svc: Obj): FieldError[] {
  const spec: Obj = svc.spec && typeof svc.spec === 'object' ? svc.spec : {};
  const errs: FieldError[] = [];
  const ps = ports(spec);
  const headless = isHeadless(spec);
  if (ps.length === 0 && !headless && spec.type !== 'ExternalName') errs.push(required('spec.ports'));
  switch (spec.type) {
    case 'LoadBalancer':
      ps.forEach((p, i) => {
        if (p.port === 10250) errs.push(invalid(index('spec.ports', i), p.port, 'may not expose port 10250 externally since it is used by kubelet'));
      });
      if (headless) errs.push(invalid('spec.clusterIPs[0]', spec.clusterIPs[0], "may not be set to 'None' for LoadBalancer services"));
      break;
    case 'NodePort':
      if (headless) errs.push(invalid('spec.clusterIPs[0]', spec.clusterIPs[0], "may not be set to 'None' for NodePort services"));
      break;
    case 'ExternalName': {
      if (Array.isArray(spec.clusterIPs) && spec.clusterIPs.length > 0) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (Array.isArray(spec.ipFamilies) && spec.ipFamilies.length > 0) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy) errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      const cname = String(spec.externalName ?? '').replace(/\.$/, '');
      if (cname) for (const m of isDNS1123Subdomain(cname)) errs.push(invalid('spec.externalName', cname, m));
      else errs.push(required('spec.externalName'));
      break;
    }
  }
  const names = new Set<string>();
  ps.forEach((p, i) => errs.push(...validateServicePort(p, ps.length > 1, names, index('spec.ports', i))));
  if (spec.selector) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (!spec.sessionAffinity) errs.push(required('spec.sessionAffinity'));
  else if (!['ClientIP', 'None'].includes(spec.sessionAffinity)) errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    errs.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPs(spec));
  (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).forEach((ip: string, i: number) => {
    if (!isValidIP(String(ip))) errs.push(invalid(index('spec.externalIPs', i), ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  if (!spec.type) errs.push(required('spec.type'));
  else if (!TYPES.includes(spec.type)) errs.push(notSupported('spec.type', spec.type, TYPES));
  if (spec.type === 'ClusterIP') {
    ps.forEach((p, i) => {
      if (p.nodePort) errs.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ps.forEach((p, i) => {
    if (!p.nodePort) return;
    const k = `${p.protocol}/${p.nodePort}`;
    if (nodePorts.has(k)) errs.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(k);
  });
  const seenPorts = new Set<string>();
  ps.forEach((p, i) => {
    const k = `${p.protocol}/${p.port}`;
    if (seenPorts.has(k)) {
      errs.push(duplicate(index('spec.ports', i), { protocol: p.protocol, port: p.port }, `core.ServicePort{Name:"", Protocol:${JSON.stringify(p.protocol ?? '')}, AppProtocol:(*string)(nil), Port:${p.port}, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}`));
    }
    seenPorts.add(k);
  });
  if (spec.externalTrafficPolicy && spec.type !== 'NodePort' && spec.type !== 'LoadBalancer') {
    errs.push(invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set when `type` is \'NodePort\' or \'LoadBalancer\''));
  } else if (spec.externalTrafficPolicy && !['Local', 'Cluster'].includes(spec.externalTrafficPolicy)) {
    errs.push(invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'ExternalTrafficPolicy must be empty, Cluster or Local'));
  }
  if (spec.internalTrafficPolicy && !['Local', 'Cluster'].includes(spec.internalTrafficPolicy)) {
    errs.push(notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, ['Cluster', 'Local']));
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP cannot change once set. */
function validateClusterIPsUpdate(spec: Obj, oldSpec: Obj): FieldError[] {
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const ips: string[] = Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [];
  const oldIps: string[] = Array.isArray(oldSpec.clusterIPs) ? oldSpec.clusterIPs : [];
  const errs: FieldError[] = [];
  const changed = (i: number) => invalid(index('spec.clusterIPs', i), ips, 'may not change once set', goStringSlice(ips));
  if (oldIps.length === ips.length) {
    oldIps.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(changed(i));
    });
  } else if (oldIps.length > ips.length) {
    if (ips.length === 0) errs.push(invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset', goStringSlice(ips)));
    if (ips.length > 0 && ips[0] !== oldIps[0]) errs.push(changed(0));
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errs.push(invalid('spec.clusterIPs[0]', ips, "`ipFamilyPolicy` must be set to 'SingleStack' when releasing the secondary clusterIP", goStringSlice(ips)));
    }
  } else if (oldIps.length > 0 && ips[0] !== oldIps[0]) {
    errs.push(changed(0));
  }
  return errs;
}

/** patchAllocatedValues: an update that omits clusterIP(s)/nodePorts keeps the stored ones. */
function servicePrepareForUpdate(svc: Obj, old: Obj): void {
  const spec: Obj = svc.spec && typeof svc.spec === 'object' ? svc.spec : (svc.spec = {});
  const oldSpec: Obj = old?.spec ?? {};
  const needsIP = (s: Obj) => (s.type || 'ClusterIP') !== 'ExternalName';
  if (needsIP(spec) && needsIP(oldSpec)) {
    if (!spec.clusterIP && oldSpec.clusterIP) spec.clusterIP = oldSpec.clusterIP;
    if ((!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0) && Array.isArray(oldSpec.clusterIPs) && oldSpec.clusterIPs.length > 0) {
      spec.clusterIPs = [...oldSpec.clusterIPs];
    }
    if ((!Array.isArray(spec.ipFamilies) || spec.ipFamilies.length === 0) && Array.isArray(oldSpec.ipFamilies)) spec.ipFamilies = [...oldSpec.ipFamilies];
    if (!spec.ipFamilyPolicy && oldSpec.ipFamilyPolicy) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
  }
  const needsNP = (s: Obj) => s.type === 'NodePort' || s.type === 'LoadBalancer';
  if (needsNP(spec) && needsNP(oldSpec)) {
    const byName = new Map<string, number>();
    for (const p of ports(oldSpec)) if (p.nodePort) byName.set(p.name ?? '', p.nodePort);
    const used = new Set(ports(spec).map((p) => p.nodePort).filter(Boolean));
    for (const p of ports(spec)) {
      const prev = byName.get(p.name ?? '');
      if (!p.nodePort && prev && !used.has(prev)) p.nodePort = prev;
    }
  }
}

export const serviceRules: KindRules = {
  defaults: serviceDefaults,
  prepareForUpdate: servicePrepareForUpdate,
  validateCreate: validateService,
  validateUpdate: (svc, old) => [...validateClusterIPsUpdate(svc.spec ?? {}, old?.spec ?? {}), ...validateService(svc)],
};

