// Virtual resources: POST-only endpoints that answer without storing anything (access reviews,
// who-am-i, token requests) and the pod subresources that act on the pod (eviction, binding).
// With authorization off (the default) the requester is an admin in system:masters.
import type { ApiResponse } from '../types';
import type { RequestContext } from '../server/context';
import type { OutputFormat } from '../server/output';
import { badRequest, methodNotAllowed } from '../server/status';
import { encodeValue, objectResponse } from '../server/respond';
import { decodeObjectBody } from './body';
import { deleteObject, getObject, updateObject } from '../registry/store';
import { rfc3339, type Obj } from '../registry/objects';
import { parseDryRun } from './options';

export const ADMIN_USER = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

function review(rc: RequestContext, body: Obj, status: Obj): Obj {
  return { kind: rc.r.info.kind, apiVersion: rc.r.apiVersion, metadata: { creationTimestamp: null, ...(body.metadata ?? {}) }, spec: body.spec ?? {}, status };
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function handleVirtualCreate(rc: RequestContext, out: OutputFormat): Promise<ApiResponse> {
  if (rc.info.verb !== 'create') throw methodNotAllowed();
  const body = (decodeObjectBody(rc) ?? {}) as Obj;
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body of the request was in an unknown format');
  const sub = rc.info.subresource;
  const resource = rc.r.info.resource;
  if (sub === 'token') {
    await getObject(rc.reg, rc.r, rc.info.namespace, rc.info.name);
    const seconds = body.spec?.expirationSeconds ?? 3600;
    const spec = { audiences: body.spec?.audiences ?? ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: seconds, boundObjectRef: body.spec?.boundObjectRef ?? null };
    return encodeValue(201, { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: { name: rc.info.name, namespace: rc.info.namespace, creationTimestamp: null }, spec, status: { token: randomToken(), expirationTimestamp: rfc3339(rc.reg.now() + seconds * 1000) } }, out, rc.warnings);
  }
  if (sub === 'eviction') {
    const dryRun = parseDryRun(rc.query.getAll('dryRun'), 'CreateOptions');
    const res = await deleteObject(rc.reg, rc.r, rc.info.namespace, rc.info.name, { dryRun, ...(body.deleteOptions ?? {}) });
    void res;
    return encodeValue(201, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, out, rc.warnings);
  }
  if (sub === 'binding') {
    const node = body.target?.name;
    if (!node) throw badRequest('binding target name is required');
    const res = await updateObject(rc.reg, rc.r, rc.info.namespace, rc.info.name, (cur) => ({ ...cur, spec: { ...cur.spec, nodeName: node } }), { dryRun: false, subresource: '', allowCreate: false, checkName: false });
    return objectResponse(201, rc.r, res.obj, res.text, out, rc.warnings, rc.reg.now());
  }
  switch (resource) {
    case 'selfsubjectaccessreviews':
    case 'subjectaccessreviews':
    case 'localsubjectaccessreviews':
      return encodeValue(201, review(rc, body, { allowed: true, reason: 'authorization is not enabled: every request is allowed' }), out, rc.warnings);
    case 'selfsubjectrulesreviews':
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
    case 'selfsubjectreviews':
      return encodeValue(201, { kind: 'SelfSubjectReview', apiVersion: rc.r.apiVersion, metadata: { creationTimestamp: null }, status: { userInfo: ADMIN_USER } }, out, rc.warnings);
    case 'tokenreviews':
      return encodeValue(201, review(rc, body, { authenticated: false, user: {}, error: 'token authentication is not enabled' }), out, rc.warnings);
    default:
      throw methodNotAllowed();
  }
}
