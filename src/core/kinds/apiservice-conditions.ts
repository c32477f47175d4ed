// The Available condition of an APIService, as kube-aggregator v1.23 decides it: a local one
// (no spec.service: served by this server) is always available; one that names a Service is
// checked against the Service and its Endpoints (available_controller.go), in the same order
// and with the same reasons and messages. Nothing here can reach an aggregated server, so one
// that passes every stored check fails the discovery check the way a Go client reports an
// address where nobody listens.
import { objectKey } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { rfc3339, type Obj } from '../registry/objects';

export interface ApiServiceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** What the condition says, without its time (the time only moves when the status flips). */
export type ConditionVerdict = Pick<ApiServiceCondition, 'status' | 'reason' | 'message'>;

export const LOCAL_AVAILABLE: ConditionVerdict = { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };

/** The Available condition of `status`, if any. */
export function availableCondition(status: Obj | undefined): ApiServiceCondition | undefined {
  const conditions: unknown = status?.conditions;
  if (!Array.isArray(conditions)) return undefined;
  return conditions.find((c: Obj) => c?.type === 'Available');
}

/**
 * kube's SetAPIServiceCondition: adds the Available condition, or rewrites its reason and message
 * and, only when the status changes, its lastTransitionTime. Returns a new status object.
 */
export function withAvailable(status: Obj | undefined, verdict: ConditionVerdict, now: number): Obj {
  const conditions: Obj[] = Array.isArray(status?.conditions) ? status.conditions.map((c: Obj) => ({ ...c })) : [];
  const existing = conditions.find((c) => c.type === 'Available');
  if (!existing) {
    conditions.push({ type: 'Available', status: verdict.status, lastTransitionTime: rfc3339(now), reason: verdict.reason, message: verdict.message });
  } else {
    if (existing.status !== verdict.status) {
      existing.status = verdict.status;
      existing.lastTransitionTime = rfc3339(now);
    }
    existing.reason = verdict.reason;
    existing.message = verdict.message;
  }
  return { ...(status ?? {}), conditions };
}

/** True when the stored condition already says what `verdict` says (no write needed). */
export function sameVerdict(status: Obj | undefined, verdict: ConditionVerdict): boolean {
  const c = availableCondition(status);
  return !!c && c.status === verdict.status && c.reason === verdict.reason && c.message === verdict.message;
}

async function stored(ctx: RegistryContext, resource: string, ns: string, name: string): Promise<Obj | undefined> {
  const r = ctx.catalog.versionsOf('', resource)[0];
  const kv = r && (await ctx.mvcc.get(objectKey(r, ns, name)));
  return kv ? (JSON.parse(kv.value) as Obj) : undefined;
}

/** What kube's available controller writes when the backend's Service answers discovery. */
export const PASSED: ConditionVerdict = { status: 'True', reason: 'Passed', message: 'all checks passed' };

/** Whether a group/version names a backend this process serves itself (the simulated metrics-server). */
export type ServedInProcess = (group: string, version: string) => boolean;

/**
 * The verdict for an APIService: Local, Passed for a backend served in process (reached without
 * its Service, which the simulation does not make), or the first check its Service fails.
 */
export async function availabilityOf(ctx: RegistryContext, apiService: Obj, servedInProcess?: ServedInProcess): Promise<ConditionVerdict> {
  const ref = apiService.spec?.service;
  if (!ref) return LOCAL_AVAILABLE;
  if (servedInProcess?.(String(apiService.spec?.group ?? ''), String(apiService.spec?.version ?? ''))) return PASSED;
  const name = String(ref.name ?? '');
  const ns = String(ref.namespace ?? '');
  // v1 defaulting gives the port 443 (SetDefaults_ServiceReference).
  const port = typeof ref.port === 'number' ? ref.port : 443;
  const where = `service/${name} in "${ns}"`;
  const service = await stored(ctx, 'services', ns, name);
  if (!service) return { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` };
  const type = service.spec?.type ?? 'ClusterIP';
  if (type === 'ClusterIP') {
    const servicePort = (service.spec?.ports ?? []).find((p: Obj) => p?.port === port);
    if (!servicePort) return { status: 'False', reason: 'ServicePortError', message: `${where} is not listening on port ${port}` };
    const portName = String(servicePort.name ?? '');
    const endpoints = await stored(ctx, 'endpoints', ns, name);
    if (!endpoints) return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpoints for ${where}` };
    const active = (endpoints.subsets ?? []).some(
      (s: Obj) => Array.isArray(s?.addresses) && s.addresses.length > 0 && (s.ports ?? []).some((p: Obj) => String(p?.name ?? '') === portName),
    );
    if (!active) return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for ${where} have no addresses with port name "${portName}"` };
  }
  // The discovery GET kube would send to the Service's cluster IP (or external name).
  const host = type === 'ExternalName' ? String(service.spec?.externalName ?? '') : String(service.spec?.clusterIP ?? '');
  const group = String(apiService.spec?.group ?? '');
  const version = String(apiService.spec?.version ?? '');
  const url = `https://${host}:${port}/apis/${group}/${version}`;
  return {
    status: 'False',
    reason: 'FailedDiscoveryCheck',
    message: `failing or missing response from ${url}: Get "${url}": dial tcp ${host}:${port}: connect: connection refused`,
  };
}
