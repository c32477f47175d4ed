// Virtual resources: POST-only endpoints that answer without storing anything (access reviews,
// who-am-i, token requests) and the pod subresources that act on the pod (eviction, binding).
// With authorization off (the default) the requester is an admin in system:masters.
import type { ApiResponse } from '../meta/types';
import type { RequestContext } from './context';
import type { OutputFormat } from '../meta/output';
import { badRequest, invalid, methodNotAllowed } from '../meta/status';
import { encodeValue } from './respond';
import { decodeObjectBody } from './body';
import { getObject } from '../registry/store';
import { bindPod } from '../kinds/pod-subresources';
import { evictPod } from '../kinds/pdb-eviction';
import { rfc3339, type Obj } from '../registry/objects';
import { parseDryRun } from './options';
import { requestAuthorizer, requestUser } from '../auth/request-user';
import { serviceAccountTokens, TOKEN_ISSUER } from '../auth/service-account-tokens';
import { accessReviewStatus, reviewAttributes, rulesReviewStatus, specUser } from '../auth/reviews';
import { requestAttributes } from './admission-attributes';
import { admitSubresourceCreate, BINDING_KIND, EVICTION_KIND, typedSubresourceObject, type SubresourceCreate } from '../admission/webhooks/subresource-create';
import type { GVK } from '../admission/webhooks/review';

function review(rc: RequestContext, body: Obj, status: Obj): Obj {
  const metadata: Obj = { creationTimestamp: null, ...(body.metadata ?? {}) };
  // Namespaced reviews (LocalSubjectAccessReview) take the namespace from the path.
  if (rc.r.info.namespaced) {
    if (metadata.namespace && metadata.namespace !== rc.info.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    metadata.namespace = rc.info.namespace;
  }
  return { kind: rc.r.info.kind, apiVersion: rc.r.apiVersion, metadata, spec: body.spec ?? {}, status };
}

/**
 * Admission of a pod subresource create. Its dry run is the request's CreateOptions' (the query):
 * an eviction's own deleteOptions.dryRun does not reach admission, as in kube.
 */
function subresourceRequest(rc: RequestContext, kind: GVK, object: Obj): SubresourceCreate {
  const dryRun = rc.query.getAll('dryRun').length > 0 && parseDryRun(rc.query.getAll('dryRun'), 'CreateOptions');
  return { r: rc.r, namespace: rc.info.namespace, name: rc.info.name, object, kind, attrs: requestAttributes(rc, 'CREATE', dryRun) };
}

/**
 * A create of a kind whose spec says it is a POST to another resource's subresource (the legacy
 * `bindings` collection: pods/<metadata.name>/binding), answered as that POST.
 */
export function handleCreateThrough(rc: RequestContext, out: OutputFormat, through: { resource: string; subresource: string }): Promise<ApiResponse> {
  const body = decodeObjectBody(rc) as Obj | undefined;
  const target = rc.reg.catalog.lookup(rc.r.info.group, rc.r.info.version, through.resource);
  if (!target) throw methodNotAllowed();
  const name = typeof body?.metadata?.name === 'string' ? body.metadata.name : '';
  return handleVirtualCreate({ ...rc, r: target, info: { ...rc.info, resource: through.resource, name, subresource: through.subresource } }, out);
}

export async function handleVirtualCreate(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  if (rc.info.verb !== 'create') throw methodNotAllowed();
  const body = (decodeObjectBody(rc) ?? {}) as Obj;
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body of the request was in an unknown format');
  const sub = rc.info.subresource;
  const resource = rc.r.info.resource;
  if (sub === 'token') {
    const kv = await getObject(rc.reg, rc.r, rc.info.namespace, rc.info.name);
    const sa = JSON.parse(kv.value) as Obj;
    const seconds = body.spec?.expirationSeconds ?? 3600;
    // kube's TokenRequest validation: at least ten minutes, at most 2^32 seconds.
    if (typeof seconds !== 'number' || seconds < 600) throw invalid('authentication.k8s.io', 'TokenRequest', rc.info.name, [{ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', value: seconds, detail: 'may not specify a duration less than 10 minutes' }]);
    if (seconds > 2 ** 32) throw invalid('authentication.k8s.io', 'TokenRequest', rc.info.name, [{ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', value: seconds, detail: 'may not specify a duration larger than 2^32 seconds' }]);
    const audiences: string[] = body.spec?.audiences?.length ? body.spec.audiences : [TOKEN_ISSUER];
    const spec: Obj = { audiences, expirationSeconds: seconds, boundObjectRef: body.spec?.boundObjectRef ?? null };
    const now = rc.reg.now();
    const tokens = serviceAccountTokens(rc.reg);
    if (!tokens) throw new Error('service account tokens are not available');
    const ref = body.spec?.boundObjectRef;
    const bound = ref && (ref.kind === 'Pod' || ref.kind === 'Secret') ? { kind: ref.kind as 'Pod' | 'Secret', name: String(ref.name ?? ''), uid: String(ref.uid ?? '') } : undefined;
    const token = tokens.issue(rc.info.namespace, { name: rc.info.name, uid: sa.metadata?.uid ?? '' }, audiences, now, seconds, bound);
    return encodeValue(201, { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name: rc.info.name, namespace: rc.info.namespace, creationTimestamp: null }, spec, status: { token, expirationTimestamp: rfc3339(now + seconds * 1000) } }, out, rc.warnings);
  }
  if (sub === 'eviction') {
    // Deletes the pod with the eviction's DeleteOptions when its PodDisruptionBudget allows.
    if (body.metadata?.name && body.metadata.name !== rc.info.name) throw badRequest('name in URL does not match name in Eviction object');
    const posted = (body.deleteOptions ?? {}) as Obj;
    // A malformed dryRun is refused before any webhook is called.
    parseDryRun(Array.isArray(posted.dryRun) ? posted.dryRun : rc.query.getAll('dryRun'), 'DeleteOptions');
    const eviction = await admitSubresourceCreate(rc.reg, subresourceRequest(rc, EVICTION_KIND, typedSubresourceObject(EVICTION_KIND, body, rc.info.namespace, ['deleteOptions'])));
    // A mutating webhook may have changed the DeleteOptions the eviction deletes the pod with.
    const opts = (eviction.deleteOptions ?? {}) as Obj;
    const dryRun = parseDryRun(Array.isArray(opts.dryRun) ? opts.dryRun : rc.query.getAll('dryRun'), 'DeleteOptions');
    await evictPod(rc.reg, rc.r, rc.info.namespace, rc.info.name, { dryRun, gracePeriodSeconds: opts.gracePeriodSeconds, preconditions: opts.preconditions ?? undefined });
    return encodeValue(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, out, rc.warnings);
  }
  if (sub === 'binding') {
    // kube's BindingREST.setPodHostAndAnnotations.
    const requireTarget = (b: Obj) => {
      if (!b.target?.name) throw badRequest('binding target name is required');
    };
    const binding = await admitSubresourceCreate(rc.reg, subresourceRequest(rc, BINDING_KIND, typedSubresourceObject(BINDING_KIND, body, rc.info.namespace, ['target'])), requireTarget);
    // The pod-side write is the Pod kind's binding adapter (kinds/pod-subresources.ts).
    await bindPod(rc.reg, rc.r, rc.info.namespace, rc.info.name, binding);
    // BindingREST answers a bare Success, not the pod.
    return encodeValue(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, out, rc.warnings);
  }
  switch (resource) {
    case 'selfsubjectaccessreviews':
    case 'subjectaccessreviews':
    case 'localsubjectaccessreviews': {
      const authz = requestAuthorizer(rc.reg);
      if (authz) {
        const spec = (body.spec ?? {}) as Obj;
        const attrs = reviewAttributes(spec);
        if (resource === 'localsubjectaccessreviews' && attrs.kind === 'resource' && (attrs.namespace ?? '') !== rc.info.namespace) {
          throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${rc.info.namespace}`);
        }
        const user = resource === 'selfsubjectaccessreviews' ? requestUser(rc.reg) : specUser(spec);
        return encodeValue(201, review(rc, body, accessReviewStatus(authz, user, attrs)), out, rc.warnings);
      }
      // kube's AlwaysAllow authorizer allows with an empty reason (omitted from the status).
      return encodeValue(201, review(rc, body, { allowed: true }), out, rc.warnings);
    }
    case 'selfsubjectrulesreviews': {
      const authz = requestAuthorizer(rc.reg);
      if (authz) return encodeValue(201, review(rc, body, rulesReviewStatus(authz, requestUser(rc.reg), String(body.spec?.namespace ?? ''))), out, rc.warnings);
      return encodeValue(
        201,
        review(rc, body, {
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
          nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
          incomplete: false,
        }),
        out,
        rc.warnings,
      );
    }
    case 'selfsubjectreviews':
      return encodeValue(201, { kind: 'SelfSubjectReview', apiVersion: rc.r.apiVersion, metadata: { creationTimestamp: null }, status: { userInfo: requestUser(rc.reg) } }, out, rc.warnings);
    case 'tokenreviews': {
      const token = body.spec?.token;
      if (typeof token !== 'string' || !token) throw badRequest('token is required for TokenReview in authentication');
      const tokens = serviceAccountTokens(rc.reg);
      const result = tokens ? tokens.review(token, body.spec?.audiences, rc.reg.now()) : { authenticated: false as const, error: 'invalid bearer token' };
      return encodeValue(201, review(rc, body, result.authenticated ? result : { authenticated: false, user: {}, ...(result.error ? { error: result.error } : {}) }), out, rc.warnings);
    }
    default:
      throw methodNotAllowed();
  }
}
