// ClusterIP and NodePort allocation for Services, as the v1.23 service REST storage does it before
// validation: requested values must be in range and free, missing ones are picked at random.
import { type FieldError, invalid } from './errors';
import { goStringSlice } from './gofmt';
import { isValidIPv4 } from './names';

const SERVICE_CIDR = '10.96.0.0/12';
const BASE = ipToInt('10.96.0.0');
const SIZE = 1 << 20;
/** The address the `kubernetes` Service gets (the first address of the range). */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

function ipToInt(ip: string): number {
  return ip.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
}

function intToIp(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

export type Random = () => number;

/**
 * Bitmap-like allocator over 10.96.0.0/12 (network and broadcast addresses excluded). allocate()
 * never hands out 10.96.0.1, which is kept for the `kubernetes` Service (reserve() may take it).
 */
export class ClusterIpAllocator {
  private readonly taken = new Set<number>();
  constructor(private readonly random: Random = Math.random) {}

  readonly range = SERVICE_CIDR;

  inRange(ip: string): boolean {
    if (!isValidIPv4(ip)) return false;
    const n = ipToInt(ip);
    return n > BASE && n < BASE + SIZE - 1;
  }

  /** Marks a specific address used; false when it is outside the range or already taken. */
  reserve(ip: string): boolean {
    if (!this.inRange(ip)) return false;
    const n = ipToInt(ip);
    if (this.taken.has(n)) return false;
    this.taken.add(n);
    return true;
  }

  isTaken(ip: string): boolean {
    return isValidIPv4(ip) && this.taken.has(ipToInt(ip));
  }

  release(ip: string): void {
    if (isValidIPv4(ip)) this.taken.delete(ipToInt(ip));
  }

  /**
   * The error a request for this address gets (`spec.clusterIPs: Invalid value: []string{...}:
   * failed to allocate IP ...`), or undefined when reserve() would succeed.
   */
  check(ip: string): FieldError | undefined {
    if (!isValidIPv4(ip)) return undefined; // syntax is validation's job
    if (!this.inRange(ip)) {
      return invalid('spec.clusterIPs', [ip], `failed to allocate IP ${ip}: provided IP is not in the valid range. The range of valid IPs is ${this.range}`, goStringSlice([ip]));
    }
    if (this.taken.has(ipToInt(ip))) return invalid('spec.clusterIPs', [ip], `failed to allocate IP ${ip}: provided IP is already allocated`, goStringSlice([ip]));
    return undefined;
  }

  /** The address allocate() would hand out next, without taking it (dry run). */
  peek(): string {
    const ip = this.allocate();
    this.release(ip);
    return ip;
  }

  /** A free address from a random starting offset, scanning forward (upstream's random scan). */
  allocate(): string {
    const usable = SIZE - 2;
    const start = Math.floor(this.random() * usable);
    for (let i = 0; i < usable; i++) {
      const n = BASE + 1 + ((start + i) % usable);
      const ip = intToIp(n);
      if (ip === KUBERNETES_SERVICE_IP || this.taken.has(n)) continue;
      this.taken.add(n);
      return ip;
    }
    throw new Error('range is full');
  }
}

export const NODE_PORT_RANGE = '30000-32767';
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

export class NodePortAllocator {
  private readonly taken = new Set<number>();
  constructor(private readonly random: Random = Math.random) {}

  reserve(port: number): boolean {
    if (!(port >= NODE_PORT_MIN && port <= NODE_PORT_MAX) || this.taken.has(port)) return false;
    this.taken.add(port);
    return true;
  }

  release(port: number): void {
    this.taken.delete(port);
  }

  isTaken(port: number): boolean {
    return this.taken.has(port);
  }

  allocate(): number {
    const size = NODE_PORT_MAX - NODE_PORT_MIN + 1;
    const start = Math.floor(this.random() * size);
    for (let i = 0; i < size; i++) {
      const p = NODE_PORT_MIN + ((start + i) % size);
      if (!this.taken.has(p)) {
        this.taken.add(p);
        return p;
      }
    }
    throw new Error('range is full');
  }
}

export interface ServiceAllocators {
  ips: ClusterIpAllocator;
  nodePorts: NodePortAllocator;
}

export interface AllocationResult {
  /** Non-empty when a requested value is out of range or taken; nothing stays allocated then. */
  errors: FieldError[];
  /** Gives back what this call allocated (dry run, or the write failed later). */
  undo(): void;
  /** After a successful update: releases the old object's values that the new one no longer uses. */
  commit(): void;
}

type Svc = Record<string, any>;

function needsClusterIP(svc: Svc | undefined): boolean {
  return !!svc && svc.spec?.type !== 'ExternalName';
}

function needsNodePorts(svc: Svc | undefined): boolean {
  const t = svc?.spec?.type;
  if (t === 'NodePort') return true;
  return t === 'LoadBalancer' && svc?.spec?.allocateLoadBalancerNodePorts !== false;
}

function clusterIPsOf(svc: Svc | undefined): string[] {
  if (!needsClusterIP(svc)) return [];
  const ips: unknown = svc?.spec?.clusterIPs;
  return Array.isArray(ips) ? ips.filter((x): x is string => typeof x === 'string' && x !== 'None' && x !== '') : [];
}

function nodePortsOf(svc: Svc | undefined): number[] {
  if (!needsNodePorts(svc)) return [];
  const ports: unknown = svc?.spec?.ports;
  return Array.isArray(ports) ? ports.map((p) => p?.nodePort).filter((n): n is number => typeof n === 'number' && n !== 0) : [];
}

/**
 * Allocates what a Service needs (create: old undefined; update: old = stored object). Fills
 * spec.clusterIP/clusterIPs and ports[].nodePort when missing; values the old object already holds
 * are kept without reallocation. Invalid IP syntax is left for validation to report.
 */
export function allocateServiceAddresses(svc: Svc, alloc: ServiceAllocators, old?: Svc): AllocationResult {
  const spec: Svc = svc.spec ?? (svc.spec = {});
  const gotIps: string[] = [];
  const gotPorts: number[] = [];
  const oldIps = new Set(clusterIPsOf(old));
  const oldPorts = new Set(nodePortsOf(old));
  const undo = () => {
    for (const ip of gotIps) alloc.ips.release(ip);
    for (const p of gotPorts) alloc.nodePorts.release(p);
  };
  const fail = (e: FieldError): AllocationResult => {
    undo();
    return { errors: [e], undo: () => {}, commit: () => {} };
  };

  if (needsClusterIP(svc)) {
    const ips: string[] = Array.isArray(spec.clusterIPs) && spec.clusterIPs.length ? spec.clusterIPs : spec.clusterIP ? [spec.clusterIP] : [];
    if (ips.length === 0 && !spec.clusterIP) {
      const ip = alloc.ips.allocate();
      gotIps.push(ip);
      spec.clusterIP = ip;
      spec.clusterIPs = [ip];
    } else {
      for (const ip of ips) {
        // (Runs before the body's null items become Go's "": validation reports them after.)
        if (typeof ip !== 'string' || ip === 'None' || oldIps.has(ip) || !isValidIPv4(ip)) continue;
        if (!alloc.ips.inRange(ip)) {
          return fail(invalid('spec.clusterIPs', ips, `failed to allocate IP ${ip}: provided IP is not in the valid range. The range of valid IPs is ${alloc.ips.range}`, goStringSlice(ips)));
        }
        if (!alloc.ips.reserve(ip)) return fail(invalid('spec.clusterIPs', ips, `failed to allocate IP ${ip}: provided IP is already allocated`, goStringSlice(ips)));
        gotIps.push(ip);
      }
    }
  }

  if (needsNodePorts(svc) && Array.isArray(spec.ports)) {
    for (let i = 0; i < spec.ports.length; i++) {
      const p = spec.ports[i];
      if (!p || typeof p !== 'object') continue;
      if (typeof p.nodePort === 'number' && p.nodePort !== 0) {
        if (oldPorts.has(p.nodePort) || gotPorts.includes(p.nodePort)) continue;
        const field = `spec.ports[${i}].nodePort`;
        if (p.nodePort < NODE_PORT_MIN || p.nodePort > NODE_PORT_MAX) {
          return fail(invalid(field, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE}`));
        }
        if (!alloc.nodePorts.reserve(p.nodePort)) return fail(invalid(field, p.nodePort, 'provided port is already allocated'));
        gotPorts.push(p.nodePort);
      } else {
        p.nodePort = alloc.nodePorts.allocate();
        gotPorts.push(p.nodePort);
      }
    }
  }

  return {
    errors: [],
    undo,
    commit: () => {
      const keepIps = new Set(clusterIPsOf(svc));
      for (const ip of oldIps) if (!keepIps.has(ip)) alloc.ips.release(ip);
      const keepPorts = new Set(nodePortsOf(svc));
      for (const p of oldPorts) if (!keepPorts.has(p)) alloc.nodePorts.release(p);
    },
  };
}

/** On delete: gives back the Service's cluster IPs and node ports. */
export function releaseServiceAddresses(svc: Svc, alloc: ServiceAllocators): void {
  for (const ip of clusterIPsOf(svc)) alloc.ips.release(ip);
  for (const p of nodePortsOf(svc)) alloc.nodePorts.release(p);
}

/** After a restart: marks the stored Service's addresses used again. */
export function reserveServiceAddresses(svc: Svc, alloc: ServiceAllocators): void {
  for (const ip of clusterIPsOf(svc)) alloc.ips.reserve(ip);
  for (const p of nodePortsOf(svc)) alloc.nodePorts.reserve(p);
}
