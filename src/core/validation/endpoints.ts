// v1 Endpoints and discovery.k8s.io EndpointSlice (v1, v1beta1): core/v1 SetDefaults_Endpoints,
// discovery/v1[beta1] SetDefaults_EndpointPort, core/validation ValidateEndpoints[Update] and
// discovery/validation ValidateEndpointSlice[Create|Update] (v1.23).
import { endpointSliceToHub } from '../versions/endpointslice';
import { type FieldError, duplicate, index, invalid, notSupported, required } from './errors';
import { INVALID_IP, isIPv4, nonSpecialIPMessages, parseIP } from './ip-address';
import type { KindRules } from './kind-rules';
import { validateImmutable, validateLabels } from './meta';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, isValidPortNum } from './names';
import { isObj, type Obj } from './values';


const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isObj(x) ? x : {})) : []);
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/**
 * field.TooMany. v1.23 prints the actual count before the detail (`Too many: 1001: must have at
 * most 1000 items`); the shared formatter prints no value for this type, so the count is carried
 * in the detail.
 */
function tooMany(field: string, actual: number, max: number): FieldError {
  return { type: 'FieldValueTooMany', field, value: actual, detail: `${actual}: must have at most ${max} items` };
}

const dns1123Label = (value: string, field: string): FieldError[] => isDNS1123Label(value).map((m) => invalid(field, value, m));
const nodeName = (value: string, field: string): FieldError[] => isDNS1123Subdomain(value).map((m) => invalid(field, value, m));
const qualifiedName = (value: string, field: string): FieldError[] => isQualifiedName(value).map((m) => invalid(field, value, m));
const nonSpecialIP = (address: string, field: string): FieldError[] => nonSpecialIPMessages(address).map((m) => invalid(field, address, m));

/** `emptyIsMissing`: Endpoints' protocol is a string (empty = unset), EndpointSlice's a pointer. */
function validateProtocol(protocol: unknown, field: string, emptyIsMissing: boolean): FieldError[] {
  if (protocol === undefined || protocol === null || (emptyIsMissing && protocol === '')) return [required(field)];
  return PROTOCOLS.includes(String(protocol)) ? [] : [notSupported(field, protocol, PROTOCOLS)];
}

// ---- Endpoints ----

function defaultEndpoints(ep: Obj): void {
  for (const subset of list(ep.subsets)) for (const port of list(subset.ports)) if (!port.protocol) port.protocol = 'TCP';
}

function validateEndpointAddress(a: Obj, path: string): FieldError[] {
  const ip = typeof a.ip === 'string' ? a.ip : '';
  const errs: FieldError[] = parseIP(ip) ? [] : [invalid(`${path}.ip`, ip, INVALID_IP)];
  if (a.hostname) errs.push(...dns1123Label(String(a.hostname), `${path}.hostname`));
  if (typeof a.nodeName === 'string') errs.push(...nodeName(a.nodeName, `${path}.nodeName`));
  errs.push(...nonSpecialIP(ip, `${path}.ip`));
  return errs;
}

/** With more than one port every port needs a name (a DNS-1123 label); names need not be unique. */
function validateEndpointPort(p: Obj, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = typeof p.name === 'string' ? p.name : '';
  if (requireName && !name) errs.push(required(`${path}.name`));
  else if (name) errs.push(...dns1123Label(name, `${path}.name`));
  const port = typeof p.port === 'number' ? p.port : 0;
  for (const m of isValidPortNum(port)) errs.push(invalid(`${path}.port`, port, m));
  errs.push(...validateProtocol(p.protocol, `${path}.protocol`, true));
  if (typeof p.appProtocol === 'string') errs.push(...qualifiedName(p.appProtocol, `${path}.appProtocol`));
  return errs;
}

/** ValidateEndpoints (create and update alike; a subset may have no ports, for headless services). */
function validateEndpoints(ep: Obj): FieldError[] {
  const errs: FieldError[] = [];
  list(ep.subsets).forEach((ss, i) => {
    const path = index('subsets', i);
    const ready = list(ss.addresses);
    const notReady = list(ss.notReadyAddresses);
    if (ready.length === 0 && notReady.length === 0) errs.push(required(path, 'must specify `addresses` or `notReadyAddresses`'));
    ready.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(`${path}.addresses`, j))));
    notReady.forEach((a, j) => errs.push(...validateEndpointAddress(a, index(`${path}.notReadyAddresses`, j))));
    const ports = list(ss.ports);
    ports.forEach((p, k) => errs.push(...validateEndpointPort(p, ports.length > 1, index(`${path}.ports`, k))));
  });
  return errs;
}

export const endpointsRules: KindRules = {
  defaults: defaultEndpoints,
  validateCreate: validateEndpoints,
  validateUpdate: validateEndpoints,
};

// ---- EndpointSlice ----

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
// 100 until v1.21 raised it (kubernetes#99795): a Service may have many ports.
const MAX_PORTS = 20000;
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ZONE_HINTS = 8;

/**
 * SetDefaults_EndpointPort (v1 and v1beta1): name "" and protocol TCP. Endpoint.conditions is a
 * struct in Go, so an endpoint sent without it is written back with `conditions: {}`.
 */
function defaultEndpointSlice(slice: Obj): void {
  for (const port of list(slice.ports)) {
    if (port.name === undefined || port.name === null) port.name = '';
    if (port.protocol === undefined || port.protocol === null) port.protocol = 'TCP';
  }
  for (const endpoint of list(slice.endpoints)) if (!isObj(endpoint.conditions)) endpoint.conditions = {};
}

/** validation.IsFullyQualifiedDomainName: the first failing check only. */
function validateFQDN(name: string, field: string): FieldError[] {
  if (name.length === 0) return [required(field)];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const sub = isDNS1123Subdomain(trimmed);
  if (sub.length) return [invalid(field, trimmed, sub.join(','))];
  const labels = trimmed.split('.');
  if (labels.length < 2) return [invalid(field, trimmed, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length) return [invalid(field, label, msgs.join(','))];
  }
  return [];
}

function validateAddress(address: string, addressType: string, field: string): FieldError[] {
  switch (addressType) {
    case 'IPv4': {
      const ip = parseIP(address);
      const errs = ip && isIPv4(ip) ? [] : [invalid(field, address, 'must be a valid IPv4 address')];
      return [...errs, ...nonSpecialIP(address, field)];
    }
    case 'IPv6': {
      const ip = parseIP(address);
      const errs = ip && !isIPv4(ip) ? [] : [invalid(field, address, 'must be a valid IPv6 address')];
      return [...errs, ...nonSpecialIP(address, field)];
    }
    case 'FQDN':
      return validateFQDN(address, field);
    default:
      // Unknown address types are reported once, at addressType.
      return [];
  }
}

function validateHints(hints: Obj, path: string): FieldError[] {
  const zones = list(hints.forZones);
  const zonesPath = `${path}.forZones`;
  if (zones.length > MAX_ZONE_HINTS) return [tooMany(zonesPath, zones.length, MAX_ZONE_HINTS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  zones.forEach((z, i) => {
    const field = `${index(zonesPath, i)}.name`;
    const name = typeof z.name === 'string' ? z.name : '';
    if (seen.has(name)) errs.push(duplicate(field, name));
    else seen.add(name);
    for (const m of isValidLabelValue(name)) errs.push(invalid(field, name, m));
  });
  return errs;
}

/**
 * Per endpoint: 1..100 addresses valid for the slice's type, nodeName, deprecatedTopology (a
 * label map), hostname and hints. Upstream also rejects the zone key in deprecatedTopology as an
 * internal error; neither served version can put it there (v1beta1 conversion moves it to
 * `zone`, v1 writes drop deprecatedTopology), so that check is left out.
 */
function validateEndpointList(endpoints: Obj[], addressType: string): FieldError[] {
  if (endpoints.length > MAX_ENDPOINTS) return [tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const path = index('endpoints', i);
    const addressesPath = `${path}.addresses`;
    const addresses: unknown[] = Array.isArray(ep.addresses) ? ep.addresses : [];
    if (addresses.length === 0) errs.push(required(addressesPath, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(addressesPath, addresses.length, MAX_ADDRESSES));
    addresses.forEach((a, j) => errs.push(...validateAddress(String(a ?? ''), addressType, index(addressesPath, j))));
    if (typeof ep.nodeName === 'string') errs.push(...nodeName(ep.nodeName, `${path}.nodeName`));
    const topology = isObj(ep.deprecatedTopology) ? ep.deprecatedTopology : {};
    const topologyPath = `${path}.deprecatedTopology`;
    const topologyCount = Object.keys(topology).length;
    if (topologyCount > MAX_TOPOLOGY_LABELS) errs.push(tooMany(topologyPath, topologyCount, MAX_TOPOLOGY_LABELS));
    errs.push(...validateLabels(topology, topologyPath));
    if (typeof ep.hostname === 'string') errs.push(...dns1123Label(ep.hostname, `${path}.hostname`));
    if (isObj(ep.hints)) errs.push(...validateHints(ep.hints, `${path}.hints`));
  });
  return errs;
}

/** At most 20000 ports, names unique (the empty name too) and DNS-1123 labels when set. */
function validateSlicePorts(ports: Obj[]): FieldError[] {
  if (ports.length > MAX_PORTS) return [tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((p, i) => {
    const path = index('ports', i);
    const name = typeof p.name === 'string' ? p.name : '';
    if (name) errs.push(...dns1123Label(name, `${path}.name`));
    if (names.has(name)) errs.push(duplicate(`${path}.name`, name));
    else names.add(name);
    errs.push(...validateProtocol(p.protocol, `${path}.protocol`, false));
    if (typeof p.appProtocol === 'string') errs.push(...qualifiedName(p.appProtocol, `${path}.appProtocol`));
  });
  return errs;
}

/**
 * Upstream validates the internal form, whose endpoints are v1's; a v1beta1 slice is converted
 * first so its `topology` is checked (and reported) as `deprecatedTopology`, as kube reports it.
 */
function validateEndpointSlice(slice: Obj): FieldError[] {
  const version = String(slice.apiVersion ?? '').split('/')[1] ?? 'v1';
  const hub = endpointSliceToHub(slice, version) as Obj;
  const addressType = typeof hub.addressType === 'string' ? hub.addressType : '';
  const errs: FieldError[] = [];
  if (!addressType) errs.push(required('addressType'));
  else if (!ADDRESS_TYPES.includes(addressType)) errs.push(notSupported('addressType', addressType, ADDRESS_TYPES));
  errs.push(...validateEndpointList(list(hub.endpoints), addressType));
  errs.push(...validateSlicePorts(list(hub.ports)));
  return errs;
}

export const endpointSliceRules: KindRules = {
  defaults: defaultEndpointSlice,
  validateCreate: validateEndpointSlice,
  validateUpdate: (slice, old) => [...validateEndpointSlice(slice), ...validateImmutable(slice.addressType ?? '', old?.addressType ?? '', 'addressType')],
};
