// What the endpoints and endpointslice controllers both read: the pods behind a Service's
// selector and the port each Service port reaches on each pod (a number, or a named container
// port looked up in the pod, as podutil.FindPort does).
import type { Obj } from '../registry/objects';
import { labelSelectorFromObject, matchesLabels } from '../selectors/labels';
import { isPodReady } from './pods';

export interface Backend {
  pod: Obj;
  ip: string;
  ready: boolean;
  terminating: boolean;
  /** Service port name → resolved port and protocol (ports the pod does not have are left out). */
  ports: { name: string; port: number; protocol: string; appProtocol?: string }[];
}

/** Services with a selector are the controllers' business; the others' endpoints belong to their users. */
export function selectorOf(svc: Obj): Record<string, string> | undefined {
  const sel = svc.spec?.selector as Record<string, string> | undefined;
  return sel && Object.keys(sel).length ? sel : undefined;
}

function findPort(pod: Obj, sp: Obj): number | undefined {
  const target = sp.targetPort ?? sp.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(String(target))) return Number(target);
  for (const c of (pod.spec?.containers ?? []) as Obj[]) {
    for (const p of (c.ports ?? []) as Obj[]) if (p.name === target && (p.protocol ?? 'TCP') === (sp.protocol ?? 'TCP')) return Number(p.containerPort);
  }
  return undefined;
}

/** The pods behind the Service with an IP, in name order. */
export function serviceBackends(svc: Obj, pods: readonly Obj[]): Backend[] {
  const sel = selectorOf(svc);
  if (!sel) return [];
  const selector = labelSelectorFromObject({ matchLabels: sel });
  const out: Backend[] = [];
  for (const pod of pods) {
    if (pod.metadata?.namespace !== svc.metadata?.namespace || !pod.status?.podIP) continue;
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
    if (!matchesLabels(selector, pod.metadata?.labels ?? {})) continue;
    const ports: Backend['ports'] = [];
    for (const sp of (svc.spec?.ports ?? []) as Obj[]) {
      const port = findPort(pod, sp);
      if (port === undefined) continue;
      const entry: Backend['ports'][number] = { name: String(sp.name ?? ''), port, protocol: String(sp.protocol ?? 'TCP') };
      if (sp.appProtocol) entry.appProtocol = String(sp.appProtocol);
      ports.push(entry);
    }
    out.push({ pod, ip: String(pod.status.podIP), ready: isPodReady(pod), terminating: !!pod.metadata?.deletionTimestamp, ports });
  }
  return out.sort((a, b) => String(a.pod.metadata.name).localeCompare(String(b.pod.metadata.name)));
}

/** Services in the pod's namespace whose selector matches it (both before and after a change matter). */
export function servicesSelecting(services: readonly Obj[], pod: Obj): Obj[] {
  return services.filter((svc) => {
    const sel = selectorOf(svc);
    return sel !== undefined && svc.metadata?.namespace === pod.metadata?.namespace && Object.entries(sel).every(([k, v]) => pod.metadata?.labels?.[k] === v);
  });
}
