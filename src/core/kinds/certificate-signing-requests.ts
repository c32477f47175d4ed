// CertificateSigningRequests as kube's csr strategies write them (pkg/registry/certificates):
// a create records who asked — spec.username, uid, groups and extra come from the requesting
// (or impersonated) user, whatever the body said — and the approval subresource changes only
// status.conditions, stamping the times a client leaves out.
import type { ResourceHooks } from '../registry/context';
import type { Obj } from '../registry/objects';
import { rfc3339 } from '../registry/objects';
import type { SubresourceWrite } from '../registry/subresource-write';
import { requestUser } from '../auth/request-user';

const GROUP = 'certificates.k8s.io';

/** CertificateSigningRequest's hooks (its kind spec's, kinds/cluster.ts). */
export function csrHooks(): ResourceHooks {
  return {
    beforeCreate(c, _r, obj) {
      const spec: Obj = obj.spec && typeof obj.spec === 'object' && !Array.isArray(obj.spec) ? obj.spec : (obj.spec = {});
      delete spec.username;
      delete spec.uid;
      delete spec.groups;
      delete spec.extra;
      const user = requestUser(c);
      if (user.username) spec.username = user.username;
      if (user.uid) spec.uid = user.uid;
      if (user.groups.length) spec.groups = [...user.groups];
      if (user.extra && Object.keys(user.extra).length) spec.extra = Object.assign(Object.create(null), user.extra);
      // Users cannot create pre-approved requests.
      obj.status = {};
    },
  };
}

/**
 * csrApprovalStrategy.PrepareForUpdate: the stored object with the new conditions only; a
 * condition without lastUpdateTime gets now, one without lastTransitionTime keeps the time of a
 * stored condition of the same type and status, or gets now.
 */
function approvalUpdate(next: Obj, old: Obj, now: number): Obj {
  const conditions: unknown = next.status?.conditions;
  // The stored object, metadata included, as the store's status writes keep it.
  const out = JSON.parse(JSON.stringify(old)) as Obj;
  const status: Obj = out.status && typeof out.status === 'object' ? out.status : (out.status = {});
  if (!Array.isArray(conditions) || conditions.length === 0) {
    delete status.conditions;
    return out;
  }
  const stamp = rfc3339(now);
  const oldConditions: Obj[] = Array.isArray(old.status?.conditions) ? old.status.conditions : [];
  status.conditions = conditions.map((cond) => {
    if (!cond || typeof cond !== 'object') return cond;
    const c = { ...(cond as Obj) };
    if (!c.lastUpdateTime) c.lastUpdateTime = stamp;
    if (!c.lastTransitionTime) {
      const same = oldConditions.find((o) => o?.type === c.type && o?.status === c.status && o?.lastTransitionTime);
      c.lastTransitionTime = same ? same.lastTransitionTime : stamp;
    }
    return c;
  });
  return out;
}

/** certificatesigningrequests/approval as a store adapter (its kind spec's `subresourceWrites`). */
export const CSR_APPROVAL_WRITE: SubresourceWrite = { prepare: approvalUpdate };
