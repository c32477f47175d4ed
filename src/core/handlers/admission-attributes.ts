// Builds the admission attributes of an API request from the handler's request context.
import type { RequestContext } from './context';
import { requestUser } from '../auth/request-user';
import type { Obj } from '../registry/objects';
import { auditAnnotationsOf, optionsObject, type AdmissionAttributes, type AdmissionOperation } from '../registry/admission-attributes';

const OPTIONS_KIND = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions', CONNECT: 'CreateOptions' } as const;

export function requestAttributes(rc: RequestContext, operation: AdmissionOperation, dryRun: boolean, options: Obj = {}): AdmissionAttributes {
  const opts: Obj = { ...(dryRun ? { dryRun: ['All'] } : {}), ...options };
  if (operation !== 'DELETE') {
    const manager = rc.query.get('fieldManager');
    if (manager && opts.fieldManager === undefined) opts.fieldManager = manager;
  }
  const req = rc.req;
  return {
    operation,
    user: requestUser(rc.reg),
    subresource: rc.info.subresource,
    dryRun,
    options: optionsObject(OPTIONS_KIND[operation], opts),
    warnings: rc.warnings,
    // Made when admission first writes one (few writes get any): no per-request entry in the
    // weak table the audit filter reads, which costs garbage collection work per request.
    get auditAnnotations() {
      return auditAnnotationsOf(req);
    },
  };
}
