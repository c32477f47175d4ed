// networking.k8s.io and discovery.k8s.io kinds: Ingress, IngressClass, NetworkPolicy, EndpointSlice.
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, formatLabelSelector, listWithMore, str } from '../format';
import { age } from '../time';
import type { KubeObject, Printer } from '../types';
import { loadBalancerAddresses } from './core';

function name(obj: KubeObject): string {
  return str(asRecord(obj.metadata).name);
}

function created(obj: KubeObject, now: number): string {
  return age(asRecord(obj.metadata).creationTimestamp, now);
}

/** formatHosts: up to three hosts; note upstream counts "more" over all rules, hostless ones too. */
function ingressHosts(rules: unknown): string {
  const all = asArray(rules);
  const list: string[] = [];
  let more = false;
  for (const rule of all) {
    if (list.length === 3) more = true;
    if (!more && str(rule.host) !== '') list.push(str(rule.host));
  }
  if (list.length === 0) return '*';
  return more ? `${list.join(',')} + ${all.length - 3} more...` : list.join(',');
}

export const ingressPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Class', 'string', 'IngressClass that implements this ingress.'),
    column('Hosts', 'string', 'Host names the rules match.'),
    column('Address', 'string', 'Addresses of the load balancer serving the ingress.'),
    column('Ports', 'string', 'Ports served: 80, plus 443 when TLS is configured.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const className = typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>';
    const ports = asArray(spec.tls).length > 0 ? '80, 443' : '80';
    return {
      cells: [name(obj), className, ingressHosts(spec.rules), loadBalancerAddresses(asRecord(obj.status).loadBalancer), ports, created(obj, now)],
    };
  },
};

export const ingressClassPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Controller', 'string', 'Controller that implements ingresses of this class.'),
    column('Parameters', 'string', 'Resource holding extra controller parameters, as Kind[.group]/name.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    let parameters = '<none>';
    if (spec.parameters) {
      const p = asRecord(spec.parameters);
      parameters = str(p.kind) + (typeof p.apiGroup === 'string' ? `.${p.apiGroup}` : '') + `/${str(p.name)}`;
    }
    return { cells: [name(obj), str(spec.controller), parameters, created(obj, now)] };
  },
};

export const networkPolicyPrinter: Printer = {
  columns: [NAME_COLUMN, column('Pod-Selector', 'string', 'Pods the policy applies to.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), formatLabelSelector(asRecord(obj.spec).podSelector ?? {}), created(obj, now)] }),
};

export const endpointSlicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('AddressType', 'string', 'IPv4, IPv6 or FQDN.'),
    column('Ports', 'string', 'Port numbers of the slice, at most three shown.'),
    column('Endpoints', 'string', 'Endpoint addresses, at most three shown.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const ports = asArray(obj.ports).map((p) => (typeof p.port === 'number' ? String(p.port) : typeof p.name === 'string' ? p.name : '*'));
    const addresses = asArray(obj.endpoints).flatMap((e) => (Array.isArray(e.addresses) ? e.addresses.map(str) : []));
    return {
      cells: [
        name(obj),
        str(obj.addressType),
        listWithMore(ports, ports.length) || '<unset>',
        listWithMore(addresses, addresses.length) || '<unset>',
        created(obj, now),
      ],
    };
  },
};
