// ComponentStatus (v1, deprecated since 1.19): kube-apiserver v1.23 stores nothing for it; every
// get or list probes the components it assumes run beside it — the scheduler and the
// controller-manager on their default secure ports on 127.0.0.1, and each etcd server it uses —
// and answers one Healthy condition per component. This server has no scheduler or
// controller-manager, so their probes answer what a refused dial gives kube's HTTP prober (a
// failure whose text becomes the message, no error); its storage stands in for etcd, which
// answers healthy with etcd 3.5's /health body.
import type { Obj } from '../registry/objects';

interface Component {
  name: string;
  /** The URL kube-apiserver probes. */
  url: string;
  /** The probe's outcome: healthy with this body, or a refused connection. */
  healthyBody?: string;
}

/** kube's default ports: kube-scheduler 10259 and kube-controller-manager 10257 (both HTTPS). */
const COMPONENTS: readonly Component[] = [
  { name: 'scheduler', url: 'https://127.0.0.1:10259/healthz' },
  { name: 'controller-manager', url: 'https://127.0.0.1:10257/healthz' },
  // kubeadm's --etcd-servers; 1.23 ships etcd 3.5, whose /health body carries a reason.
  { name: 'etcd-0', url: 'https://127.0.0.1:2379/health', healthyBody: '{"health":"true","reason":""}' },
];

/** Go's net/http client error for a GET whose TCP connect was refused. */
export function refusedDialMessage(url: string): string {
  // The URL's host:port (the core has no URL class: it is ES2022 only).
  const host = url.slice(url.indexOf('//') + 2).split('/')[0];
  return `Get ${JSON.stringify(url)}: dial tcp ${host}: connect: connection refused`;
}

function componentStatus(c: Component): Obj {
  // kube's ComponentCondition: an empty error is omitted (omitempty); a failed HTTP probe puts its
  // text in the message.
  const condition = c.healthyBody !== undefined ? { type: 'Healthy', status: 'True', message: c.healthyBody } : { type: 'Healthy', status: 'False', message: refusedDialMessage(c.url) };
  // Built in memory, never stored: no uid, no resourceVersion, and Go's zero creationTimestamp (null).
  return { kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: c.name, creationTimestamp: null }, conditions: [condition] };
}

/** The components in the order `kubectl get cs` usually shows them (kube probes them concurrently). */
export function componentStatuses(): Obj[] {
  return COMPONENTS.map(componentStatus);
}

/** One component by name, or undefined when kube-apiserver has no such server to validate. */
export function componentStatusNamed(name: string): Obj | undefined {
  const c = COMPONENTS.find((x) => x.name === name);
  return c && componentStatus(c);
}
