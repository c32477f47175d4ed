// The update path when webhooks are configured. Webhooks are asynchronous and cannot run inside
// the storage transaction, so (as kube's GuaranteedUpdate) read, compute, admit, and commit only
// if the stored revision is still the one read; otherwise start over. Writes without webhooks
// keep the single synchronous transaction. As in kube, an update that changes nothing is still
// admitted (the webhooks see object equal to oldObject); it writes nothing unless a mutating
// webhook changed the object.
import type { KV, Mutation, UpdateResult } from '../storage/types';
import type { RegistryContext, WebhookAdmission } from './context';
import type { ServedResource } from './catalog';
import type { Obj } from './objects';
import { conflict, OPTIMISTIC_LOCK_MESSAGE } from '../meta/status';
import type { AdmissionAttributes } from './admission-attributes';
import type { AdmissionView, WebhookRequest } from './admission-view';

/** Thrown inside the commit when the object changed since it was read: read and admit again. */
const STALE = Symbol('stale read');
const MAX_ATTEMPTS = 5;

/** The store's update steps, split where asynchronous admission runs between them. */
export interface UpdateSteps {
  /**
   * The next object (defaulted, built-in mutating admission done); for a no-op (`noop`) the
   * object as asked, with nothing else run.
   */
  prepare(cur: KV | undefined): { next: Obj; noop: boolean };
  /** A webhook changed a no-op's object: finish what prepare skipped; false when it is still a no-op. */
  resume(next: Obj): boolean;
  /** Object validation and synchronous validating admission. */
  check(next: Obj): void;
  /** What to write. */
  commit(next: Obj): Mutation;
  /** Re-apply what a webhook may not change (the namespace). */
  fixUp(next: Obj): void;
  /** The object as read by the last prepare. */
  oldObject(): Obj;
  /** Give back what a discarded attempt took (reservations). */
  reset(): void;
}

export interface GuardedRequest {
  r: ServedResource;
  namespace: string;
  name: string;
  attrs: AdmissionAttributes;
  /** Set for a subresource served as another kind (Scale). */
  view?: AdmissionView;
}

/** Runs the mutating webhooks on `next`; the (possibly new) next object. */
async function mutate(ctx: RegistryContext, webhooks: WebhookAdmission, req: GuardedRequest, steps: UpdateSteps, next: Obj): Promise<Obj> {
  const sent = req.view ? req.view.toView(next) : next;
  const mutated = await webhooks.mutate(ctx, reviewOf(req, steps, sent));
  if (!mutated || mutated === sent) return next;
  if (req.view) return req.view.fromView(mutated, next);
  mutated.kind = req.r.info.kind;
  mutated.apiVersion = req.r.apiVersion;
  if (!mutated.metadata || typeof mutated.metadata !== 'object') mutated.metadata = {};
  steps.fixUp(mutated);
  return mutated;
}

function reviewOf(req: GuardedRequest, steps: UpdateSteps, object: Obj): WebhookRequest {
  const old = steps.oldObject();
  return { r: req.r, namespace: req.namespace, name: req.name, attrs: req.attrs, object, oldObject: req.view ? req.view.toView(old) : old, kind: req.view?.kind };
}

/** One read-admit-compute pass: the mutation to commit if the stored revision is unchanged. */
async function admitOnce(ctx: RegistryContext, webhooks: WebhookAdmission, req: GuardedRequest, steps: UpdateSteps, cur: KV | undefined): Promise<Mutation> {
  const prepared = steps.prepare(cur);
  const next = await mutate(ctx, webhooks, req, steps, prepared.next);
  const changed = !prepared.noop || (next !== prepared.next && steps.resume(next));
  if (changed) steps.check(next);
  await webhooks.validate(ctx, reviewOf(req, steps, req.view ? req.view.toView(next) : next));
  return changed ? steps.commit(next) : { kind: 'none' };
}

export async function updateWithWebhooks(ctx: RegistryContext, key: string, webhooks: WebhookAdmission, req: GuardedRequest, steps: UpdateSteps): Promise<UpdateResult> {
  for (let attempt = 1; ; attempt++) {
    const cur = await ctx.mvcc.get(key);
    const mutation = await admitOnce(ctx, webhooks, req, steps, cur);
    const readRev = cur?.modRev;
    try {
      return await ctx.mvcc.update(key, (latest) => {
        if (latest?.modRev !== readRev) throw STALE;
        return mutation;
      });
    } catch (err) {
      if (err !== STALE) throw err;
      if (attempt >= MAX_ATTEMPTS) throw conflict(req.r.info.group, req.r.info.resource, req.name, OPTIMISTIC_LOCK_MESSAGE);
      steps.reset();
    }
  }
}
