// Core-group kinds other than pods and workloads: ConfigMap, Secret, Namespace, Service,
// ServiceAccount, Endpoints, Node, PersistentVolume(Claim), ResourceQuota.
import {
  AGE_COLUMN,
  NAME_COLUMN,
  accessModes,
  asArray,
  asRecord,
  column,
  formatLabels,
  joinHostPort,
  listWithMore,
  str,
} from '../format';
import { age } from '../time';
import type { KubeObject, Printer } from '../types';

function name(obj: KubeObject): string {
  return str(asRecord(obj.metadata).name);
}

function created(obj: KubeObject, now: number): string {
  return age(asRecord(obj.metadata).creationTimestamp, now);
}

function countKeys(value: unknown): number {
  return Object.keys(asRecord(value)).length;
}

export const configMapPrinter: Printer = {
  columns: [NAME_COLUMN, column('Data', 'string', 'Number of keys in data and binaryData.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), countKeys(obj.data) + countKeys(obj.binaryData), created(obj, now)] }),
};

export const secretPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'Secret type, which fixes the keys it must hold.'),
    column('Data', 'string', 'Number of keys in data.'),
    AGE_COLUMN,
  ],
  print: (obj, now) => ({ cells: [name(obj), str(obj.type), countKeys(obj.data), created(obj, now)] }),
};

export const namespacePrinter: Printer = {
  columns: [NAME_COLUMN, column('Status', 'string', 'Namespace phase: Active or Terminating.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), str(asRecord(obj.status).phase), created(obj, now)] }),
};

export const serviceAccountPrinter: Printer = {
  columns: [NAME_COLUMN, column('Secrets', 'string', 'Number of secrets listed by the service account.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), asArray(obj.secrets).length, created(obj, now)] }),
};

/** Distinct load-balancer IPs (or hostnames), sorted, comma-joined; never clipped in wide output. */
export function loadBalancerAddresses(status: unknown): string {
  const set = new Set<string>();
  for (const ing of asArray(asRecord(status).ingress)) {
    if (str(ing.ip) !== '') set.add(str(ing.ip));
    else if (str(ing.hostname) !== '') set.add(str(ing.hostname));
  }
  return [...set].sort().join(',');
}

function serviceExternalIP(spec: KubeObject, status: KubeObject, type: string): string {
  const externalIPs = Array.isArray(spec.externalIPs) ? spec.externalIPs.map(str) : [];
  switch (type) {
    case 'ClusterIP':
    case 'NodePort':
      return externalIPs.length > 0 ? externalIPs.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerAddresses(status.loadBalancer);
      if (externalIPs.length > 0) return [...(lb ? lb.split(',') : []), ...externalIPs].join(',');
      return lb || '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

function servicePorts(ports: unknown): string {
  return asArray(ports)
    .map((p) => {
      // protocol is defaulted to TCP by the server; a store without defaulting still prints sensibly.
      const protocol = str(p.protocol) || 'TCP';
      const nodePort = typeof p.nodePort === 'number' && p.nodePort > 0 ? `:${p.nodePort}` : '';
      return `${str(p.port)}${nodePort}/${protocol}`;
    })
    .join(',');
}

export const servicePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'How the service is exposed: ClusterIP, NodePort, LoadBalancer or ExternalName.'),
    column('Cluster-IP', 'string', 'Virtual IP of the service inside the cluster.'),
    column('External-IP', 'string', 'Addresses reachable from outside the cluster.'),
    column('Port(s)', 'string', 'Service ports as port[:nodePort]/protocol.'),
    AGE_COLUMN,
    column('Selector', 'string', 'Labels of the pods that receive the traffic.', 1),
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const status = asRecord(obj.status);
    // type defaults to ClusterIP on the server; clusterIPs mirrors clusterIP there.
    const type = str(spec.type) || 'ClusterIP';
    const clusterIPs = Array.isArray(spec.clusterIPs) ? spec.clusterIPs.map(str) : [];
    const clusterIP = clusterIPs[0] || str(spec.clusterIP) || '<none>';
    return {
      cells: [
        name(obj),
        type,
        clusterIP,
        serviceExternalIP(spec, status, type),
        servicePorts(spec.ports) || '<none>',
        created(obj, now),
        formatLabels(spec.selector),
      ],
    };
  },
};

function formatEndpoints(subsets: unknown): string {
  const all = asArray(subsets);
  if (all.length === 0) return '<none>';
  const list: string[] = [];
  for (const ss of all) {
    const addresses = asArray(ss.addresses);
    const ports = asArray(ss.ports);
    if (ports.length === 0) {
      // Headless services may have no ports at all.
      for (const a of addresses) list.push(str(a.ip));
    } else {
      for (const port of ports) for (const a of addresses) list.push(joinHostPort(str(a.ip), port.port));
    }
  }
  return listWithMore(list, list.length);
}

export const endpointsPrinter: Printer = {
  columns: [NAME_COLUMN, column('Endpoints', 'string', 'Ready addresses as ip:port, at most three shown.'), AGE_COLUMN],
  print: (obj, now) => ({ cells: [name(obj), formatEndpoints(obj.subsets), created(obj, now)] }),
};

function nodeRoles(labels: unknown): string {
  const roles = new Set<string>();
  const map = asRecord(labels);
  for (const [k, v] of Object.entries(map)) {
    if (k.startsWith('node-role.kubernetes.io/')) {
      const role = k.slice('node-role.kubernetes.io/'.length);
      if (role) roles.add(role);
    } else if (k === 'kubernetes.io/role' && str(v) !== '') roles.add(str(v));
  }
  return [...roles].sort().join(',') || '<none>';
}

function nodeAddress(status: KubeObject, type: string): string {
  const found = asArray(status.addresses).find((a) => a.type === type);
  return found ? str(found.address) : '<none>';
}

export const nodePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Ready condition of the node, plus SchedulingDisabled when cordoned.'),
    column('Roles', 'string', 'Roles taken from node-role.kubernetes.io/* labels.'),
    AGE_COLUMN,
    column('Version', 'string', 'Kubelet version.'),
    column('Internal-IP', 'string', 'First InternalIP address.', 1),
    column('External-IP', 'string', 'First ExternalIP address.', 1),
    column('OS-Image', 'string', 'Operating system image reported by the kubelet.', 1),
    column('Kernel-Version', 'string', 'Kernel version reported by the kubelet.', 1),
    column('Container-Runtime', 'string', 'Container runtime name and version.', 1),
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const status = asRecord(obj.status);
    const info = asRecord(status.nodeInfo);
    const ready = asArray(status.conditions).filter((c) => c.type === 'Ready').pop();
    const states = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
    if (spec.unschedulable === true) states.push('SchedulingDisabled');
    return {
      cells: [
        name(obj),
        states.join(','),
        nodeRoles(asRecord(obj.metadata).labels),
        created(obj, now),
        str(info.kubeletVersion),
        nodeAddress(status, 'InternalIP'),
        nodeAddress(status, 'ExternalIP'),
        str(info.osImage) || '<unknown>',
        str(info.kernelVersion) || '<unknown>',
        str(info.containerRuntimeVersion) || '<unknown>',
      ],
    };
  },
};

/** GetPersistentVolume(Claim)Class: the beta annotation wins over spec.storageClassName. */
function storageClassOf(obj: KubeObject): string {
  const annotations = asRecord(asRecord(obj.metadata).annotations);
  const beta = annotations['volume.beta.kubernetes.io/storage-class'];
  if (typeof beta === 'string') return beta;
  return str(asRecord(obj.spec).storageClassName);
}

function terminatingPhase(obj: KubeObject): string {
  return asRecord(obj.metadata).deletionTimestamp ? 'Terminating' : str(asRecord(obj.status).phase);
}

export const persistentVolumePrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Capacity', 'string', 'Storage capacity of the volume.'),
    column('Access Modes', 'string', 'Access modes: RWO, ROX, RWX, RWOP.'),
    column('Reclaim Policy', 'string', 'What happens to the volume when its claim is released.'),
    column('Status', 'string', 'Volume phase, or Terminating.'),
    column('Claim', 'string', 'namespace/name of the bound claim.'),
    column('StorageClass', 'string', 'Storage class of the volume.'),
    column('Reason', 'string', 'Reason for a failed phase.'),
    AGE_COLUMN,
    column('VolumeMode', 'string', 'Filesystem or Block.', 1),
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const claim = spec.claimRef ? `${str(spec.claimRef.namespace)}/${str(spec.claimRef.name)}` : '';
    return {
      cells: [
        name(obj),
        str(asRecord(spec.capacity).storage) || '0',
        accessModes(spec.accessModes),
        str(spec.persistentVolumeReclaimPolicy),
        terminatingPhase(obj),
        claim,
        storageClassOf(obj),
        str(asRecord(obj.status).reason),
        created(obj, now),
        str(spec.volumeMode) || '<unset>',
      ],
    };
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Status', 'string', 'Claim phase, or Terminating.'),
    column('Volume', 'string', 'Name of the bound volume.'),
    column('Capacity', 'string', 'Capacity of the bound volume.'),
    column('Access Modes', 'string', 'Access modes of the bound volume.'),
    column('StorageClass', 'string', 'Storage class requested by the claim.'),
    AGE_COLUMN,
    column('VolumeMode', 'string', 'Filesystem or Block.', 1),
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const status = asRecord(obj.status);
    const bound = str(spec.volumeName) !== '';
    return {
      cells: [
        name(obj),
        terminatingPhase(obj),
        str(spec.volumeName),
        bound ? str(asRecord(status.capacity).storage) || '0' : '',
        bound ? accessModes(status.accessModes) : '',
        storageClassOf(obj),
        created(obj, now),
        str(spec.volumeMode) || '<unset>',
      ],
    };
  },
};

function quotaColumns(status: KubeObject): [string, string] {
  const hard = asRecord(status.hard);
  const used = asRecord(status.used);
  const requests: string[] = [];
  const limits: string[] = [];
  for (const resource of Object.keys(hard).sort()) {
    const entry = `${resource}: ${str(used[resource]) || '0'}/${str(hard[resource])}`;
    const pieces = resource.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(entry);
  }
  return [requests.join(', '), limits.join(', ')];
}

export const resourceQuotaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('Request', 'string', 'Used/hard amounts of every non-limit resource in the quota.'),
    column('Limit', 'string', 'Used/hard amounts of the limits.* resources in the quota.'),
  ],
  print(obj, now) {
    const [request, limit] = quotaColumns(asRecord(obj.status));
    return { cells: [name(obj), created(obj, now), request, limit] };
  },
};
