// The CRD controllers: serve a definition's resources as soon as it is stored (status
// Established), validate custom objects against its schema, and delete its objects with it.
import type { RegistryContext, ResourceHooks } from '../registry/context';
import { updateObject } from '../registry/store';
import { rfc3339, type Obj } from '../registry/objects';
import { crdResources, storageVersionName } from './resources';
import { validateCrd } from './validate-crd';
import { validateCustomObject } from './validate-object';
import { dropDisabledCrdFields } from './drop-disabled-fields';
import { crdGone, crdTerminating, markCrdDeleted, startCrdFinalizer } from './finalizer';
import type { ServedResource } from '../registry/catalog';
import { ApiError } from '../meta/status';

function serve(ctx: RegistryContext, crd: Obj): void {
  const spec = crd.spec ?? {};
  if (!spec.group || !spec.names?.plural) return;
  ctx.catalog.setCustom(spec.group, spec.names.plural, crdResources(crd));
}

function establishedStatus(crd: Obj, now: number): Obj {
  const t = rfc3339(now);
  const storage = storageVersionName(crd);
  return {
    conditions: [
      { type: 'NamesAccepted', status: 'True', lastTransitionTime: t, reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', lastTransitionTime: t, reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ],
    acceptedNames: crd.spec?.names ?? {},
    storedVersions: storage ? [storage] : [],
  };
}

/** Delete every object of the CRD's resource (each delete is a real one: watchers see DELETED). */
async function deleteCustomObjects(ctx: RegistryContext, group: string, plural: string): Promise<void> {
  const r = ctx.catalog.versionsOf(group, plural)[0];
  if (!r) return;
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  for (const kv of kvs) {
    await ctx.mvcc.update(kv.key, (cur) => (cur ? { kind: 'delete' } : { kind: 'none' }));
  }
}

export interface CrdFeatures {
  /** The CustomResourceValidationExpressions gate (alpha in v1.23, off by default). */
  validationExpressions: boolean;
}

/** CustomResourceDefinition's hooks (its kind spec's, kinds/cluster.ts). */
export function crdHooks(features: CrdFeatures = { validationExpressions: false }): ResourceHooks {
  return {
    validate: (_c, _r, obj) => validateCrd(obj),
    beforeCreate(_c, _r, obj) {
      dropDisabledCrdFields(obj, undefined, features.validationExpressions);
    },
    async afterCreate(c, r, obj) {
      serve(c, obj);
      const status = establishedStatus(obj, c.now());
      await updateObject(c, r, '', obj.metadata.name, (cur) => ({ ...cur, status }), { dryRun: false, subresource: 'status', allowCreate: false, checkName: false }).catch((err) => {
        if (!(err instanceof ApiError)) throw err;
      });
    },
    // kube's CRD strategy: a new storage version joins status.storedVersions on every write, so
    // the versions objects may still be stored at are known until a migration removes them.
    beforeUpdate(_c, _r, next, old) {
      dropDisabledCrdFields(next, old, features.validationExpressions);
      const storage = storageVersionName(next);
      const stored: unknown = next.status?.storedVersions;
      if (!storage || !Array.isArray(stored) || stored.includes(storage)) return;
      next.status = { ...next.status, storedVersions: [...stored, storage] };
    },
    markDeleted: markCrdDeleted,
    afterUpdate(c, _r, obj) {
      if (!obj.metadata?.deletionTimestamp) serve(c, obj);
      else startCrdFinalizer(c, obj);
    },
    async afterDelete(c, _r, obj) {
      const { group, names } = obj.spec ?? {};
      await deleteCustomObjects(c, group, names?.plural);
      c.catalog.removeCustom(group, names?.plural);
      crdGone(c, obj);
    },
  };
}

/** The hooks of every custom resource (CUSTOM_RESOURCES in write-hooks.ts). */
export function customResourceHooks(): ResourceHooks {
  return {
    validate: (_c, r: ServedResource, obj, old) => validateCustomObject(obj, r.info.openAPIV3Schema, old),
    // The CR handler refuses creates while the CRD is terminating (405, its own message).
    beforeCreate(c, r: ServedResource) {
      if (!crdTerminating(c, r.info.group, r.info.resource)) return;
      throw new ApiError(405, 'MethodNotAllowed', 'create not allowed while custom resource definition is terminating', { group: r.info.group, kind: r.info.resource });
    },
  };
}

/** Serve the resources of every CRD already in storage (after a restart). */
export async function bootstrapCrds(ctx: RegistryContext): Promise<void> {
  const r = ctx.catalog.versionsOf('apiextensions.k8s.io', 'customresourcedefinitions')[0];
  if (!r) return;
  const { kvs } = await ctx.mvcc.range(r.keyPrefix);
  for (const kv of kvs) {
    const crd = JSON.parse(kv.value) as Obj;
    serve(ctx, crd);
    if (crd.metadata?.deletionTimestamp) startCrdFinalizer(ctx, crd);
  }
}
