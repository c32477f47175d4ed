// One pass of kube-controller-manager's namespace deleter over a Terminating namespace
// (pkg/controller/namespace/deletion, v1.23): delete the content of every namespaced resource
// that supports delete (Background propagation), count what is left and which finalizers hold
// it, and turn that into the namespace's deletion conditions with the deleter's own reasons and
// messages.
import type { ServedResource } from '../../registry/catalog';
import type { RegistryContext } from '../../registry/context';
import { deleteObject } from '../../registry/store';
import { ApiError } from '../../meta/status';
import type { Obj } from '../../registry/objects';

export interface ContentPass {
  /** Objects left, per `resource.group` (kube's GroupVersionResource, group possibly empty). */
  remaining: Map<string, number>;
  /** Objects left per finalizer. */
  finalizers: Map<string, number>;
  /** Delete failures and objects that stayed without a finalizer, as the deleter words them. */
  errors: string[];
}

/** What discovery's preferred namespaced resources with the delete verb give: one per stored collection. */
function deletableResources(ctx: RegistryContext): ServedResource[] {
  const seen = new Set<string>();
  const out: ServedResource[] = [];
  for (const r of ctx.catalog.servedResources()) {
    if (!r.info.namespaced || r.info.virtual || !r.info.verbs.includes('delete') || seen.has(r.keyPrefix)) continue;
    seen.add(r.keyPrefix);
    out.push(r);
  }
  return out;
}

/** deleteAllContent: delete everything in `ns`, then report what remains. */
export async function deleteAllContent(ctx: RegistryContext, ns: string): Promise<ContentPass> {
  const pass: ContentPass = { remaining: new Map(), finalizers: new Map(), errors: [] };
  for (const r of deletableResources(ctx)) {
    const prefix = `${r.keyPrefix}${ns}/`;
    const { kvs } = await ctx.mvcc.range(prefix);
    if (kvs.length === 0) continue;
    let failed = false;
    for (const kv of kvs) {
      try {
        await deleteObject(ctx, r, ns, kv.key.slice(prefix.length), { dryRun: false, propagationPolicy: 'Background' });
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) continue;
        // A deletecollection stops at its first failure; the deleter records that error.
        if (!failed) pass.errors.push(err instanceof Error ? err.message : String(err));
        failed = true;
      }
    }
    if (failed) continue;
    const left = (await ctx.mvcc.range(prefix)).kvs;
    if (left.length === 0) continue;
    const gvr = `${r.info.resource}.${r.info.group}`;
    pass.remaining.set(gvr, left.length);
    let withFinalizers = 0;
    for (const kv of left) {
      const finalizers: unknown = (JSON.parse(kv.value) as Obj).metadata?.finalizers;
      if (!Array.isArray(finalizers) || finalizers.length === 0) continue;
      withFinalizers++;
      for (const f of finalizers) pass.finalizers.set(String(f), (pass.finalizers.get(String(f)) ?? 0) + 1);
    }
    // Left without a finalizer: it should have gone (schema.GroupVersionResource's String form).
    if (withFinalizers === 0) pass.errors.push(`unexpected items still remain in namespace: ${ns} for gvr: ${r.info.group}/${r.info.version}, Resource=${r.info.resource}`);
  }
  return pass;
}

const CONDITION_TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

const OK: Record<(typeof CONDITION_TYPES)[number], { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  NamespaceDeletionGroupVersionParsingFailure: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  NamespaceDeletionContentFailure: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
};

interface Condition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** Go's sort.Strings: byte order. */
const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The failing conditions of a pass (discovery and group-version parsing cannot fail in process). */
function failingConditions(pass: ContentPass): Map<string, { reason: string; message: string }> {
  const out = new Map<string, { reason: string; message: string }>();
  if (pass.errors.length) {
    const msgs = [...pass.errors].sort(byteOrder);
    out.set('NamespaceDeletionContentFailure', { reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}` });
  }
  if (pass.remaining.size) {
    const parts = [...pass.remaining].map(([gvr, n]) => `${gvr} has ${n} resource instances`).sort(byteOrder);
    out.set('NamespaceContentRemaining', { reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${parts.join(', ')}` });
  }
  if (pass.finalizers.size) {
    const parts = [...pass.finalizers].map(([f, n]) => `${f} in ${n} resource instances`).sort(byteOrder);
    out.set('NamespaceFinalizersRemaining', { reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${parts.join(', ')}` });
  }
  return out;
}

/**
 * updateConditions: every deleter condition present, True with the failure or False with its
 * "ok" text; lastTransitionTime moves only when the status flips. Undefined when nothing changed.
 */
export function deletionConditions(existing: unknown, pass: ContentPass, now: string): Condition[] | undefined {
  const conditions: Condition[] = Array.isArray(existing) ? existing.map((c) => ({ ...(c as Condition) })) : [];
  const failing = failingConditions(pass);
  let changed = false;
  for (const type of CONDITION_TYPES) {
    const fail = failing.get(type);
    const want = fail ? { status: 'True', ...fail } : { status: 'False', ...OK[type] };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ type, status: want.status, lastTransitionTime: now, reason: want.reason, message: want.message });
      changed = true;
    } else if (old.status !== want.status || old.reason !== want.reason || old.message !== want.message) {
      if (old.status !== want.status) old.lastTransitionTime = now;
      Object.assign(old, want);
      changed = true;
    }
  }
  return changed ? conditions : undefined;
}
