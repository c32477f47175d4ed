// networking.k8s.io/v1 Ingress validation (pkg/apis/networking/validation, v1.23).
import { type FieldError, index, invalid, notSupported, required } from './errors';
import type { KindRules } from './kind-rules';
import { isDNS1035Label, isDNS1123Subdomain, isValidIP, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from './names';

type Obj = Record<string, any>;
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

function validateBackend(b: Obj | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasResource = !!b?.resource;
  const hasService = !!b?.service;
  if (hasResource && hasService) return [invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) {
    const r: Obj = b!.resource;
    if (!r.kind) errs.push(required(`${path}.resource.kind`));
    if (!r.name) errs.push(required(`${path}.resource.name`));
    return errs;
  }
  if (!hasService) return [invalid(path, '', 'resource or service backend is required')];
  const svc: Obj = b!.service;
  if (!svc.name) errs.push(required(`${path}.service.name`));
  else for (const m of isDNS1035Label(String(svc.name))) errs.push(invalid(`${path}.service.name`, svc.name, m));
  const portName = svc.port?.name ?? '';
  const portNumber = svc.port?.number ?? 0;
  if (portName && portNumber) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (portName) for (const m of isValidPortName(String(portName))) errs.push(invalid(`${path}.service.port.name`, portName, m));
  else if (portNumber) for (const m of isValidPortNum(portNumber)) errs.push(invalid(`${path}.service.port.number`, portNumber, m));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

function validatePath(p: Obj, path: string): FieldError[] {
  if (!p.pathType) return [required(`${path}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = String(p.path ?? '');
  switch (p.pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(invalid(`${path}.path`, value, 'must be an absolute path'));
      if (value) {
        for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) errs.push(invalid(`${path}.path`, value, `must not contain '${seq}'`));
        for (const suf of INVALID_SUFFIXES) if (value.endsWith(suf)) errs.push(invalid(`${path}.path`, value, `cannot end with '${suf}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value && !value.startsWith('/')) errs.push(invalid(`${path}.path`, value, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupported(`${path}.pathType`, p.pathType, PATH_TYPES));
  }
  errs.push(...validateBackend(p.backend, `${path}.backend`));
  return errs;
}

function validateIngress(ing: Obj): FieldError[] {
  const spec: Obj = ing.spec ?? {};
  const errs: FieldError[] = [];
  const rules: Obj[] = Array.isArray(spec.rules) ? spec.rules : [];
  if (rules.length === 0 && !spec.defaultBackend) errs.push(invalid('spec', rules, 'either `defaultBackend` or `rules` must be specified', '[]networking.IngressRule(nil)'));
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  rules.forEach((r, i) => {
    const rp = index('spec.rules', i);
    if (r?.host) {
      const host = String(r.host);
      if (isValidIP(host)) errs.push(invalid(`${rp}.host`, host, 'must be a DNS name, not an IP address'));
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const m of msgs) errs.push(invalid(`${rp}.host`, host, m));
    }
    if (r?.http) {
      const paths: Obj[] = Array.isArray(r.http.paths) ? r.http.paths : [];
      if (paths.length === 0) errs.push(required(`${rp}.http.paths`));
      paths.forEach((p, j) => errs.push(...validatePath(p ?? {}, index(`${rp}.http.paths`, j))));
    }
  });
  (Array.isArray(spec.tls) ? spec.tls : []).forEach((t: Obj, i: number) => {
    (Array.isArray(t?.hosts) ? t.hosts : []).forEach((h: string, j: number) => {
      const msgs = String(h).includes('*') ? isWildcardDNS1123Subdomain(String(h)) : isDNS1123Subdomain(String(h));
      for (const m of msgs) errs.push(invalid(index(`${index('spec.tls', i)}.hosts`, j), h, m));
    });
  });
  if (typeof spec.ingressClassName === 'string') {
    for (const m of isDNS1123Subdomain(spec.ingressClassName)) errs.push(invalid('spec.ingressClassName', spec.ingressClassName, m));
  }
  return errs;
}

export const ingressRules: KindRules = { validateCreate: validateIngress, validateUpdate: validateIngress };
