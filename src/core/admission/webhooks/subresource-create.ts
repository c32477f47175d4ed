// CREATE admission of the pod subresources that act on the pod instead of storing an object
// (pods/eviction, pods/binding). kube admits them like any create: the mutating webhooks may
// change the posted object, which the subresource then acts on, and the validating webhooks see
// the result; oldObject is null. Their kinds are fixed by the subresource (policy/v1 Eviction,
// v1 Binding), whatever version the client posted.
import type { RegistryContext } from '../../registry/context';
import type { ServedResource } from '../../registry/catalog';
import type { Obj } from '../../registry/objects';
import type { AdmissionAttributes } from '../../registry/admission-attributes';
import type { GVK } from './review';
import { badRequest } from '../../meta/status';

export interface SubresourceCreate {
  /** The parent resource (pods). */
  r: ServedResource;
  namespace: string;
  /** The parent object's name (the path's). */
  name: string;
  object: Obj;
  kind: GVK;
  attrs: AdmissionAttributes;
}

export const EVICTION_KIND: GVK = { group: 'policy', version: 'v1', kind: 'Eviction' };
export const BINDING_KIND: GVK = { group: '', version: 'v1', kind: 'Binding' };

/**
 * The object after mutating admission (the same object when no webhook applies). `check` is the
 * subresource's own validation, which kube runs between the mutating and validating webhooks.
 */
export async function admitSubresourceCreate(ctx: RegistryContext, req: SubresourceCreate, check?: (obj: Obj) => void): Promise<Obj> {
  const webhooks = ctx.webhooks?.configured() ? ctx.webhooks : undefined;
  if (!webhooks) {
    check?.(req.object);
    return req.object;
  }
  const review = { ...req, oldObject: null };
  const mutated = (await webhooks.mutate(ctx, review)) ?? req.object;
  check?.(mutated);
  await webhooks.validate(ctx, { ...review, object: mutated });
  return mutated;
}

/** The posted object as the typed one kube decodes: kind and apiVersion of `kind`, the request's namespace. */
export function typedSubresourceObject(kind: GVK, body: Obj, namespace: string, fields: string[]): Obj {
  const given = (body.metadata && typeof body.metadata === 'object' ? body.metadata : {}) as Obj;
  // As for every create: a namespace in the body must be the one of the URL.
  if (given.namespace && given.namespace !== namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  const meta: Obj = { ...given, namespace };
  if (!('creationTimestamp' in meta)) meta.creationTimestamp = null;
  const out: Obj = { kind: kind.kind, apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version, metadata: meta };
  for (const f of fields) if (body[f] !== undefined) out[f] = body[f];
  return out;
}
