// kube-apiserver's priority-and-fairness-config-producer (v1.23): creates the bootstrap
// FlowSchemas and PriorityLevelConfigurations that are missing, puts the spec of every mandatory
// one back, updates a suggested one only while it is marked for auto-update (the annotation
// "true", or no usable annotation and generation 1), and deletes objects marked for auto-update
// that the bootstrap set no longer has. kube re-runs this every minute; here it runs at start and
// again after any change to the configuration (flowcontrol-sync.ts), which converges the same way.
import { objectKey, type ServedResource } from '../registry/catalog';
import type { RegistryContext } from '../registry/context';
import { createObject, deleteObject, updateObject } from '../registry/store';
import { clone, type Obj } from '../registry/objects';
import {
  AUTO_UPDATE_ANNOTATION,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
} from './flowcontrol-bootstrap-objects';
import { setOwnKey } from '../codec/own-keys';

export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.k8s.io';
/** How the producer appears in managedFields. */
export const PRODUCER_FIELD_MANAGER = 'api-priority-and-fairness-config-producer-v1';

/** The served version the apiserver's own clients use (v1beta2 since 1.23.1), else v1beta1. */
export function flowcontrolResource(ctx: RegistryContext, resource: string): ServedResource | undefined {
  return ctx.catalog.lookup(FLOWCONTROL_GROUP, 'v1beta2', resource) ?? ctx.catalog.lookup(FLOWCONTROL_GROUP, 'v1beta1', resource);
}

/** Go's strconv.ParseBool; undefined for anything else. */
export function parseBool(v: unknown): boolean | undefined {
  if (typeof v !== 'string') return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/**
 * Canonical text of a spec for comparison the way apimachinery's semantic equality sees decoded
 * Go structs: zero values (false, 0, "", empty lists) are the same as absent fields.
 */
export function canonicalSpec(value: unknown): string {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.length ? v.map(walk) : undefined;
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        const w = walk((v as Record<string, unknown>)[k]);
        if (w !== undefined) setOwnKey(out, k, w);
      }
      return out;
    }
    return v === false || v === 0 || v === '' || v === null ? undefined : v;
  };
  return JSON.stringify(walk(value) ?? {});
}

/** Whether the spec of a suggested object may be overwritten (the ensurer's shouldUpdateSpec). */
function autoUpdatesSpec(current: Obj): boolean {
  const marked = parseBool(current.metadata?.annotations?.[AUTO_UPDATE_ANNOTATION]);
  if (marked !== undefined) return marked;
  // Without a usable annotation, an object the operator never changed may still be updated.
  return current.metadata?.generation === 1;
}

const internal = { dryRun: false, subresource: '', allowCreate: false, checkName: false, owner: { manager: PRODUCER_FIELD_MANAGER } };

async function ensureOne(ctx: RegistryContext, r: ServedResource, bootstrap: Obj, mandatory: boolean): Promise<void> {
  const name = bootstrap.metadata.name as string;
  const kv = await ctx.mvcc.get(objectKey(r, '', name));
  if (!kv) {
    await createObject(ctx, r, '', clone(bootstrap), false, { manager: PRODUCER_FIELD_MANAGER }).catch(ignore('AlreadyExists'));
    return;
  }
  // Stored in v1beta1, whose fields are those of v1beta2: no conversion needed to compare.
  const current = JSON.parse(kv.value) as Obj;
  const autoUpdate = mandatory || autoUpdatesSpec(current);
  const annotationOk = parseBool(current.metadata?.annotations?.[AUTO_UPDATE_ANNOTATION]) === autoUpdate;
  const specChanged = autoUpdate && canonicalSpec(current.spec) !== canonicalSpec(bootstrap.spec);
  if (annotationOk && !specChanged) return;
  await updateObject(
    ctx,
    r,
    '',
    name,
    (cur) => {
      const next: Obj = { ...cur, metadata: { ...cur.metadata, annotations: { ...cur.metadata?.annotations } } };
      if (!annotationOk) next.metadata.annotations[AUTO_UPDATE_ANNOTATION] = String(autoUpdate);
      if (specChanged) next.spec = clone(bootstrap.spec);
      return next;
    },
    internal,
  ).catch(ignore('NotFound'));
}

/** Deletes auto-updated objects that are no longer part of the bootstrap configuration. */
async function removeStale(ctx: RegistryContext, r: ServedResource, wanted: readonly Obj[]): Promise<void> {
  const names = new Set(wanted.map((o) => o.metadata.name as string));
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  for (const kv of kvs) {
    const obj = JSON.parse(kv.value) as Obj;
    const name = obj.metadata?.name as string;
    if (names.has(name)) continue;
    // Only objects the apiserver owns (annotation "true"); a malformed value is left alone.
    if (parseBool(obj.metadata?.annotations?.[AUTO_UPDATE_ANNOTATION]) !== true) continue;
    await deleteObject(ctx, r, '', name, { dryRun: false }).catch(ignore('NotFound'));
  }
}

function ignore(reason: string): (err: unknown) => void {
  return (err) => {
    if ((err as { reason?: string } | undefined)?.reason !== reason) throw err;
  };
}

/** One pass of the ensurer, in kube's order: suggested, then mandatory, then removal. */
export async function ensureFlowControlConfiguration(ctx: RegistryContext): Promise<void> {
  const fs = flowcontrolResource(ctx, 'flowschemas');
  const pl = flowcontrolResource(ctx, 'prioritylevelconfigurations');
  if (!fs || !pl) return;
  for (const o of SUGGESTED_FLOW_SCHEMAS) await ensureOne(ctx, fs, o, false);
  for (const o of SUGGESTED_PRIORITY_LEVELS) await ensureOne(ctx, pl, o, false);
  for (const o of MANDATORY_FLOW_SCHEMAS) await ensureOne(ctx, fs, o, true);
  for (const o of MANDATORY_PRIORITY_LEVELS) await ensureOne(ctx, pl, o, true);
  await removeStale(ctx, fs, [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]);
  await removeStale(ctx, pl, [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]);
}
