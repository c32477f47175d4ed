// Everything the generic store needs, built once by the API server.
import type { KubeletLogs } from './kubelet-logs';
import type { MvccStore } from '../storage/types';
import type { Catalog, ServedResource } from './catalog';
import type { Obj } from './objects';
import type { FieldError } from '../meta/status';
import type { AdmissionAttributes } from './admission-attributes';
import type { WebhookRequest } from './admission-view';
import { CUSTOM_RESOURCES, type WriteHooks } from './write-hooks';
import type { AdmissionPlugin } from './admission-plugin';
import { kindKey } from './kind-spec';

/** Something a hook took (an IP, a port) that must be given back if the write does not happen. */
export interface Reservation {
  undo(): void;
  /** After a successful write (e.g. release what the old object held). */
  commit?(): void;
}

/**
 * Kind-specific work around the generic store, as kube's registry strategies and REST hooks do
 * (admission plug-ins are AdmissionPlugins, admission-plugin.ts). A kind's own come from its spec
 * (kinds/); components following a kind's writes add theirs with `ctx.hooks.add`.
 */
export interface ResourceHooks {
  /** Checks and mutation before a create is validated (e.g. allocate a ClusterIP). */
  beforeCreate?(ctx: RegistryContext, r: ServedResource, obj: Obj, attrs?: AdmissionAttributes): Promise<Reservation | void> | Reservation | void;
  /** Synchronous, inside the write: mutation of an update before it is validated. */
  beforeUpdate?(ctx: RegistryContext, r: ServedResource, next: Obj, old: Obj, attrs?: AdmissionAttributes): Reservation | void;
  /** Extra validation with access to the store (synchronous; runs inside the write). */
  validate?(ctx: RegistryContext, r: ServedResource, obj: Obj, old: Obj | undefined): FieldError[];
  afterCreate?(ctx: RegistryContext, r: ServedResource, obj: Obj): void | Promise<void>;
  afterUpdate?(ctx: RegistryContext, r: ServedResource, obj: Obj, old: Obj): void | Promise<void>;
  afterDelete?(ctx: RegistryContext, r: ServedResource, obj: Obj): void | Promise<void>;
  /** Refuses a client's delete before anything else looks at it (immortal namespaces, system priority classes). */
  admitDelete?(ctx: RegistryContext, r: ServedResource, name: string): void;
  /**
   * A kind whose REST delete first only marks the object (a CRD: deletionTimestamp, its cleanup
   * finalizer, a Terminating condition) instead of the store's marking; synchronous, inside the
   * write, on an object not yet terminating.
   */
  markDeleted?(obj: Obj, now: string): void;
}

export interface RegistryContext {
  mvcc: MvccStore;
  catalog: Catalog;
  now(): number;
  /** Write hooks by kind key (write-hooks.ts). */
  hooks: WriteHooks;
  /** The admission plug-ins in kube's order (admission-plugin.ts). */
  admission: readonly AdmissionPlugin[];
  /** Background work (namespace finalization, CRD cleanup) registers here so close() can stop it. */
  background: Set<Promise<unknown>>;
  closed: boolean;
  /** Admission webhooks (absent in test doubles); `configured()` is the cheap "any at all?" check. */
  webhooks?: WebhookAdmission;
  /** See ApiServerOptions.localWebhookOrigins. */
  localWebhookOrigins?: readonly string[];
  /** Simulated kubelets answering pods/log for their nodes (present while they run). */
  kubeletLogs?: KubeletLogs;
}

/** The webhook plug-ins as the store calls them. */
export interface WebhookAdmission {
  configured(): boolean;
  /** Mutating webhooks: the object after their patches. */
  mutate(ctx: RegistryContext, req: WebhookRequest): Promise<Obj | null>;
  validate(ctx: RegistryContext, req: WebhookRequest): Promise<void>;
}

/** Run background work without blocking the request; errors are logged, never thrown at a client. */
export function runInBackground(ctx: RegistryContext, work: () => Promise<unknown>): void {
  const p = work()
    .catch((err) => {
      if (!ctx.closed) console.error('background work failed:', err);
    })
    .finally(() => ctx.background.delete(p));
  ctx.background.add(p);
}

type AfterHooks = Pick<ResourceHooks, 'afterCreate' | 'afterUpdate' | 'afterDelete'>;

/**
 * Adds after-write hooks to a kind's (`kindKey(group, kind)`): a controller following the kind's
 * writes. Those added earlier run first, and a write answers only after all of them.
 */
export function addAfterHooks(ctx: RegistryContext, key: string, extra: AfterHooks): void {
  ctx.hooks.add(key, extra);
}

export function hooksFor(ctx: RegistryContext, r: ServedResource): ResourceHooks | undefined {
  return r.info.custom ? ctx.hooks.get(CUSTOM_RESOURCES) : ctx.hooks.get(kindKey(r.info.group, r.info.kind));
}
