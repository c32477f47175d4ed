// The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plug-ins: pick the webhooks a
// request matches, send each an AdmissionReview, apply mutating hooks' JSON patches in order (and
// re-run IfNeeded hooks once when a later hook changed the object), run validating hooks
// together, and turn failures into kube's errors (failurePolicy, sideEffects with dry run).
import { applyOperations } from '../../patch/json-patch-apply';
import { ApiError } from '../../meta/status';
import { objectKey, type ServedResource } from '../../registry/catalog';
import type { RegistryContext } from '../../registry/context';
import { clone, deepEqual, newUid, type Obj } from '../../registry/objects';
import { convert, needsConversion } from '../../versions/index';
import { withWarnings, type AdmissionAttributes } from '../../registry/admission-attributes';
import type { Webhook } from './config';
import { namespaceSelected, objectSelected, rulesMatch, selectsEverything, type RuleTarget } from './match';
import { callFailedError, dryRunUnsupportedError, InvalidResponse, rejectionError, reviewRequestBody, verifyReviewResponse, type GVK, type ReviewResult } from './review';
import { CallFailure, callWebhook, type WebhookTransport } from './call';
import type { WebhookSource } from './source';
import { resolveService } from './service-resolver';

/** One write under admission. `object` is null for DELETE, `oldObject` null for CREATE. */
import type { WebhookRequest } from '../../registry/admission-view';

export type { WebhookRequest };

/** A matched webhook and the served version it is called at (another one under matchPolicy Equivalent). */
interface Invocation {
  hook: Webhook;
  index: number;
  at: ServedResource;
}

function target(r: ServedResource, req: WebhookRequest): RuleTarget {
  return { group: r.info.group, version: r.info.version, resource: r.info.resource, subresource: req.attrs.subresource, operation: req.attrs.operation, namespaced: r.info.namespaced };
}

/** Served versions sharing the request resource's storage (the equivalents kube's mapper knows). */
function equivalents(ctx: RegistryContext, r: ServedResource): ServedResource[] {
  const out: ServedResource[] = [];
  for (const info of ctx.catalog.all()) {
    if (info.resource !== r.info.resource || (info.group === r.info.group && info.version === r.info.version)) continue;
    const other = ctx.catalog.lookup(info.group, info.version, info.resource);
    if (other && other.keyPrefix === r.keyPrefix) out.push(other);
  }
  return out;
}

function asVersion(obj: Obj | null, from: ServedResource, to: ServedResource, req: WebhookRequest): Obj | null {
  if (!obj || from === to || req.kind) return obj;
  if (needsConversion(from.info.kind, from.apiVersion, to.apiVersion)) return convert(obj, from.apiVersion, to.apiVersion) as Obj;
  return { ...clone(obj), apiVersion: to.apiVersion, kind: to.info.kind };
}

export class WebhookDispatcher {
  constructor(
    private readonly source: WebhookSource,
    private readonly transport: WebhookTransport | undefined,
  ) {}

  /** Cheap: whether any webhook configuration exists at all. */
  configured(): boolean {
    return this.source.configured();
  }

  private async invocations(ctx: RegistryContext, kind: 'mutating' | 'validating', req: WebhookRequest): Promise<Invocation[]> {
    const hooks = await this.source.hooks(kind);
    const out: Invocation[] = [];
    let nsLabels: Record<string, string> | undefined | null = null;
    const namespaceLabels = async () => {
      if (nsLabels !== null) return nsLabels;
      if (req.r.info.group === '' && req.r.info.resource === 'namespaces') {
        nsLabels = (req.object ?? req.oldObject)?.metadata?.labels;
      } else {
        const nsResource = ctx.catalog.lookup('', 'v1', 'namespaces');
        const kv = nsResource ? await ctx.mvcc.get(objectKey(nsResource, '', req.namespace)) : undefined;
        nsLabels = kv ? (JSON.parse(kv.value) as Obj).metadata?.labels : undefined;
      }
      return nsLabels;
    };
    for (const [index, hook] of hooks.entries()) {
      let at: ServedResource | undefined = rulesMatch(hook, target(req.r, req)) ? req.r : undefined;
      if (!at && hook.matchPolicy === 'Equivalent') at = equivalents(ctx, req.r).find((e) => rulesMatch(hook, target(e, req)));
      if (!at) continue;
      // A cluster-scoped resource other than a Namespace is never exempted by a namespace selector.
      const nsApplies = req.r.info.namespaced || req.r.info.resource === 'namespaces';
      if (nsApplies && !selectsEverything(hook, 'namespace') && !namespaceSelected(hook, await namespaceLabels())) continue;
      if (!objectSelected(hook, req.object?.metadata?.labels, req.oldObject?.metadata?.labels, !!req.object, !!req.oldObject)) continue;
      out.push({ hook, index, at });
    }
    return out;
  }

  /** Calls one webhook; undefined when it failed and its failurePolicy is Ignore. */
  private async call(ctx: RegistryContext, inv: Invocation, req: WebhookRequest, object: Obj | null): Promise<ReviewResult | undefined> {
    const { hook, at } = inv;
    try {
      if (req.attrs.dryRun) {
        if (hook.sideEffects === undefined) throw new CallFailure('Webhook SideEffects is nil');
        if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun') throw dryRunUnsupportedError(hook.name);
      }
      const uid = newUid();
      const body = reviewRequestBody({
        uid,
        kind: req.kind ?? { group: at.info.group, version: at.info.version, kind: at.info.kind },
        resource: { group: at.info.group, version: at.info.version, resource: at.info.resource },
        requestKind: req.kind ?? { group: req.r.info.group, version: req.r.info.version, kind: req.r.info.kind },
        requestResource: { group: req.r.info.group, version: req.r.info.version, resource: req.r.info.resource },
        name: req.name,
        namespace: req.namespace,
        attrs: req.attrs,
        object: asVersion(object, req.r, at, req),
        oldObject: asVersion(req.oldObject, req.r, at, req),
      });
      const text = await callWebhook(this.transport, hook.clientConfig, hook.timeoutSeconds, body, (ns, name, port) => resolveService(ctx, ns, name, port));
      const result = verifyReviewResponse(text, uid, hook.mutating);
      for (const [k, v] of Object.entries(result.auditAnnotations)) req.attrs.auditAnnotations[`${hook.name}/${k}`] = v;
      req.attrs.warnings.push(...result.warnings);
      if (!result.allowed) throw rejectionError(hook.name, result.status);
      return result;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const reason = err instanceof CallFailure ? err.message : err instanceof InvalidResponse ? err.message : String((err as Error)?.message ?? err);
      if (hook.failurePolicy === 'Ignore') return undefined;
      throw callFailedError(hook.name, reason);
    }
  }

  /**
   * Mutating webhooks, in order; returns the object after their patches (the same object when
   * nothing matched). DELETE requests call them too, but there is no object to patch.
   */
  async mutate(ctx: RegistryContext, req: WebhookRequest): Promise<Obj | null> {
    try {
      return await this.runMutating(ctx, req);
    } catch (err) {
      throw withWarnings(err, req.attrs);
    }
  }

  private async runMutating(ctx: RegistryContext, req: WebhookRequest): Promise<Obj | null> {
    const invocations = await this.invocations(ctx, 'mutating', req);
    if (!invocations.length) return req.object;
    let object = req.object;
    let changes = 0;
    const seenAt = new Map<Invocation, number>();
    const run = async (inv: Invocation, round: number) => {
      const result = await this.call(ctx, inv, req, object);
      let mutated = false;
      if (result?.patch && object) {
        const before = asVersion(object, req.r, inv.at, req) as Obj;
        let patched: Obj;
        try {
          patched = applyOperations(before, result.patch) as Obj;
        } catch (err) {
          throw new ApiError(500, 'InternalError', `Internal error occurred: ${(err as Error).message}`, { causes: [{ message: (err as Error).message }] });
        }
        if (!deepEqual(patched, before)) {
          object = asVersion(patched, inv.at, req.r, req);
          mutated = true;
          changes++;
        }
      }
      seenAt.set(inv, changes);
      req.attrs.auditAnnotations[`mutation.webhook.admission.k8s.io/round_${round}_index_${inv.index}`] = JSON.stringify({ configuration: inv.hook.configuration, webhook: inv.hook.name, mutated });
    };
    for (const inv of invocations) await run(inv, 0);
    // Reinvocation: an IfNeeded hook runs once more when the object changed after it last ran.
    if (changes > 0) {
      for (const inv of invocations) {
        if (inv.hook.reinvocationPolicy === 'IfNeeded' && (seenAt.get(inv) ?? 0) < changes) await run(inv, 1);
      }
    }
    return object;
  }

  /** Validating webhooks, called together; the first failure in webhook order is the answer. */
  async validate(ctx: RegistryContext, req: WebhookRequest): Promise<void> {
    const invocations = await this.invocations(ctx, 'validating', req);
    if (!invocations.length) return;
    const outcomes = await Promise.allSettled(invocations.map((inv) => this.call(ctx, inv, req, req.object)));
    for (const o of outcomes) if (o.status === 'rejected') throw withWarnings(o.reason, req.attrs);
  }
}
