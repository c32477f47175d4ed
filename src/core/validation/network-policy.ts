// networking.k8s.io/v1 NetworkPolicy defaults and spec validation (v1.23:
// pkg/apis/networking/v1/defaults.go, pkg/apis/networking/validation ValidateNetworkPolicySpec).
// Updates validate the new spec the same way; nothing in it is immutable.
import { cidrContains, parseCIDR } from './cidr';
import { type FieldError, child, forbidden, index, invalid, notSupported, required } from './errors';
import { goStringSlice } from './gofmt';
import type { KindRules } from './kind-rules';
import { validateLabelSelector } from './meta';
import { isValidPortName, isValidPortNum } from './names';
import { isObj, isSet, type Obj } from './values';


const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

function defaults(np: Obj): void {
  const spec: Obj = isObj(np.spec) ? np.spec : (np.spec = {});
  // podSelector is a non-pointer, non-omitempty struct in Go: it is always written, `{}` when unset.
  if (!isObj(spec.podSelector)) spec.podSelector = {};
  if (list(spec.policyTypes).length === 0) {
    // A policy that names no types is at least an Ingress policy; egress rules add Egress.
    spec.policyTypes = list(spec.egress).length ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const rule of [...list(spec.ingress), ...list(spec.egress)]) {
    for (const port of list(rule?.ports)) if (isObj(port) && !isSet(port.protocol)) port.protocol = 'TCP';
  }
}

function validatePort(port: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isSet(port.protocol) && !PROTOCOLS.includes(port.protocol)) errs.push(notSupported(child(path, 'protocol'), port.protocol, PROTOCOLS));
  const endPort = port.endPort;
  if (typeof port.port === 'number') {
    for (const m of isValidPortNum(port.port)) errs.push(invalid(child(path, 'port'), port.port, m));
    if (isSet(endPort)) {
      // v1.23 reports `port`'s value on this endPort error (fixed upstream later).
      if (endPort < port.port) errs.push(invalid(child(path, 'endPort'), port.port, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(endPort)) errs.push(invalid(child(path, 'endPort'), endPort, m));
    }
  } else if (isSet(port.port)) {
    if (isSet(endPort)) errs.push(invalid(child(path, 'endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(String(port.port))) errs.push(invalid(child(path, 'port'), port.port, m));
  } else if (isSet(endPort)) {
    errs.push(invalid(child(path, 'endPort'), endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** ValidateIPBlock: cidr required and parseable; each except a strict subset of it. */
function validateIPBlock(block: Obj, path: string): FieldError[] {
  const cidr = typeof block.cidr === 'string' ? block.cidr : '';
  if (!cidr) return [required(child(path, 'cidr'))];
  const net = parseCIDR(cidr);
  if (!net) return [invalid(child(path, 'cidr'), cidr, 'not a valid CIDR')];
  const errs: FieldError[] = [];
  const excepts = list(block.except);
  for (let i = 0; i < excepts.length; i++) {
    const p = index(child(path, 'except'), i);
    const text = String(excepts[i] ?? '');
    const except = parseCIDR(text);
    // kube stops at the first unparseable entry.
    if (!except) return [...errs, invalid(p, text, 'not a valid CIDR')];
    if (!cidrContains(net, except.ip) || net.ones >= except.ones) errs.push(invalid(p, text, 'must be a strict subset of `cidr`'));
  }
  return errs;
}

/** ValidateNetworkPolicyPeer: exactly the ipBlock, or any of the two selectors. */
function validatePeer(peer: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let peers = 0;
  if (isSet(peer.podSelector)) {
    peers++;
    errs.push(...validateLabelSelector(peer.podSelector, child(path, 'podSelector')));
  }
  if (isSet(peer.namespaceSelector)) {
    peers++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, child(path, 'namespaceSelector')));
  }
  if (isSet(peer.ipBlock)) {
    peers++;
    errs.push(...validateIPBlock(isObj(peer.ipBlock) ? peer.ipBlock : {}, child(path, 'ipBlock')));
  }
  if (peers === 0) errs.push(required(path, 'must specify a peer'));
  else if (peers > 1 && isSet(peer.ipBlock)) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateRules(rules: unknown, path: string, peersField: 'from' | 'to'): FieldError[] {
  const errs: FieldError[] = [];
  list(rules).forEach((rule, i) => {
    const rp = index(path, i);
    list(rule?.ports).forEach((port, j) => errs.push(...validatePort(isObj(port) ? port : {}, index(child(rp, 'ports'), j))));
    list(rule?.[peersField]).forEach((peer, j) => errs.push(...validatePeer(isObj(peer) ? peer : {}, index(child(rp, peersField), j))));
  });
  return errs;
}

function validate(np: Obj): FieldError[] {
  const spec: Obj = isObj(np.spec) ? np.spec : {};
  const errs = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  errs.push(...validateRules(spec.ingress, 'spec.ingress', 'from'));
  errs.push(...validateRules(spec.egress, 'spec.egress', 'to'));
  const types = list(spec.policyTypes);
  // v1.23 checks the count and each value; a repeated type is not an error.
  if (types.length > POLICY_TYPES.length) {
    errs.push(invalid('spec.policyTypes', types, 'may not specify more than two policyTypes', goStringSlice(types.map(String), 'networking.PolicyType')));
    return errs;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) errs.push(notSupported(index('spec.policyTypes', i), t, POLICY_TYPES));
  });
  return errs;
}

export const networkPolicyRules: KindRules = { defaults, validateCreate: validate, validateUpdate: validate };
