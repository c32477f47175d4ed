// The update path when webhooks are configured. Webhooks are asynchronous and cannot run inside
// the storage transaction, so (as kube's GuaranteedUpdate) read, compute, admit, and commit only
// if the stored revision is still the one read; otherwise start over. Writes without webhooks
// keep the single synchronous transaction.
import type { KV, Mutation, UpdateResult } from '../../storage/types';
import type { RegistryContext, WebhookAdmission } from '../../registry/context';
import type { ServedResource } from '../../registry/catalog';
import type { Obj } from '../../registry/objects';
import { conflict, OPTIMISTIC_LOCK_MESSAGE } from '../../server/status';
import type { AdmissionAttributes } from '../attributes';

/** Thrown inside the commit when the object changed since it was read: read and admit again. */
const STALE = Symbol('stale read');
const MAX_ATTEMPTS = 5;

/** The store's update steps, split where asynchronous admission runs between them. */
export interface UpdateSteps {
  /** The next object (defaulted, built-in mutating admission done); undefined for a no-op. */
  prepare(cur: KV | undefined): Obj | undefined;
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

export async function updateWithWebhooks(
  ctx: RegistryContext,
  key: string,
  webhooks: WebhookAdmission,
  req: { r: ServedResource; namespace: string; name: string; attrs: AdmissionAttributes },
  steps: UpdateSteps,
): Promise<UpdateResult> {
  for (let attempt = 1; ; attempt++) {
    const cur = await ctx.mvcc.get(key);
    let next = steps.prepare(cur);
    let mutation: Mutation = { kind: 'none' };
    if (next) {
      const review = (object: Obj) => ({ ...req, object, oldObject: steps.oldObject() });
      const mutated = await webhooks.mutate(ctx, review(next));
      if (mutated && mutated !== next) {
        next = mutated;
        next.kind = req.r.info.kind;
        next.apiVersion = req.r.apiVersion;
        if (!next.metadata || typeof next.metadata !== 'object') next.metadata = {};
        steps.fixUp(next);
      }
      steps.check(next);
      await webhooks.validate(ctx, review(next));
      mutation = steps.commit(next);
    }
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
