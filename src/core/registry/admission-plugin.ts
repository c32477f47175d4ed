// The admission chain as the store calls it: one interface for every built-in admission plug-in
// and one ordered list (admission/chain.ts, put on the RegistryContext by the API server), with
// kube's phases: mutating, then validating, for create, update, delete and connect. The webhook
// plug-ins keep their own place (context.ts WebhookAdmission): after the built-in mutating ones,
// and validating webhooks after the built-in validating ones (decision 0039).
import type { RegistryContext } from './context';
import type { ServedResource } from './catalog';
import type { Obj } from './objects';
import type { AdmissionAttributes } from './admission-attributes';

/** A check to run inside the update's transaction, on the object about to be written. */
export type UpdateCheck = (next: Obj, old: Obj) => void;

export interface AdmissionPlugin {
  /** kube's plug-in name (LimitRanger, PodSecurity, ...). */
  readonly name: string;
  /** Whether the plug-in looks at writes of this resource at all. */
  handles(r: ServedResource): boolean;
  /** Mutating phase of a create: before the kind's own hooks, defaulting and validation. */
  mutateCreate?(ctx: RegistryContext, r: ServedResource, obj: Obj, attrs?: AdmissionAttributes): Promise<void> | void;
  /** Mutating phase of an update: synchronous, inside the write, before the kind's own beforeUpdate. */
  mutateUpdate?(ctx: RegistryContext, r: ServedResource, next: Obj, old: Obj, attrs?: AdmissionAttributes): void;
  /** Validating phase of a create: after object validation and the mutating webhooks. */
  validateCreate?(ctx: RegistryContext, r: ServedResource, obj: Obj, attrs?: AdmissionAttributes): Promise<void>;
  /**
   * Validating phase of an update. Before the transaction it reads what it needs (a namespace's
   * labels) and returns the synchronous check to run inside it, after object validation.
   */
  prepareUpdateValidation?(ctx: RegistryContext, r: ServedResource, ns: string, attrs?: AdmissionAttributes): Promise<UpdateCheck | undefined>;
  /** Validating phase of a client's delete, before anything else looks at it. */
  validateDelete?(ctx: RegistryContext, r: ServedResource, name: string, attrs: AdmissionAttributes): void;
  /** Validating phase of a connect (exec, attach, port-forward, proxy). */
  validateConnect?(ctx: RegistryContext, r: ServedResource, attrs: AdmissionAttributes): Promise<void> | void;
}

// Which plug-ins handle a resource depends on the resource alone (its group, kind, spec): asked
// once per resource and chain, not on every write (twice per create).
const handledBy = new WeakMap<ServedResource, { chain: readonly AdmissionPlugin[]; plugins: readonly AdmissionPlugin[] }>();

function pluginsFor(ctx: RegistryContext, r: ServedResource): readonly AdmissionPlugin[] {
  const known = handledBy.get(r);
  if (known && known.chain === ctx.admission) return known.plugins;
  const plugins = ctx.admission.filter((p) => p.handles(r));
  handledBy.set(r, { chain: ctx.admission, plugins });
  return plugins;
}

/**
 * The built-in mutating plug-ins' create step, in order: a promise only once one of them answers
 * with one. Most answer synchronously, and an async function here cost every create a promise
 * and the turns of awaiting it.
 */
export function admitCreateMutating(ctx: RegistryContext, r: ServedResource, obj: Obj, attrs?: AdmissionAttributes): Promise<void> | undefined {
  return createStep('mutateCreate', ctx, r, obj, attrs);
}

/**
 * The validating plug-ins' create checks, likewise. Most kinds have none (a ConfigMap's only
 * plug-in is ResourceQuota's mutating one), and awaiting nothing still cost two turns.
 */
export function admitCreateValidating(ctx: RegistryContext, r: ServedResource, obj: Obj, attrs?: AdmissionAttributes): Promise<void> | undefined {
  return createStep('validateCreate', ctx, r, obj, attrs);
}

export function admitUpdateMutating(ctx: RegistryContext, r: ServedResource, next: Obj, old: Obj, attrs?: AdmissionAttributes): void {
  for (const p of pluginsFor(ctx, r)) p.mutateUpdate?.(ctx, r, next, old, attrs);
}

type CreateStep = 'mutateCreate' | 'validateCreate';

function createStep(step: CreateStep, ctx: RegistryContext, r: ServedResource, obj: Obj, attrs: AdmissionAttributes | undefined): Promise<void> | undefined {
  const plugins = pluginsFor(ctx, r);
  for (let i = 0; i < plugins.length; i++) {
    const pending = plugins[i]![step]?.(ctx, r, obj, attrs);
    if (pending) return restOfStep(pending, step, ctx, r, obj, attrs, plugins, i + 1);
  }
  return undefined;
}

async function restOfStep(pending: Promise<void>, step: CreateStep, ctx: RegistryContext, r: ServedResource, obj: Obj, attrs: AdmissionAttributes | undefined, plugins: readonly AdmissionPlugin[], from: number): Promise<void> {
  await pending;
  for (let i = from; i < plugins.length; i++) {
    // A plug-in that answered synchronously is not awaited (one turn less per plug-in).
    const next = plugins[i]![step]?.(ctx, r, obj, attrs);
    if (next) await next;
  }
}

/** The update checks of every validating plug-in, as one (undefined when none has any). */
export async function prepareUpdateValidating(ctx: RegistryContext, r: ServedResource, ns: string, attrs?: AdmissionAttributes): Promise<UpdateCheck | undefined> {
  const checks: UpdateCheck[] = [];
  for (const p of pluginsFor(ctx, r)) {
    const check = await p.prepareUpdateValidation?.(ctx, r, ns, attrs);
    if (check) checks.push(check);
  }
  if (checks.length <= 1) return checks[0];
  return (next, old) => {
    for (const check of checks) check(next, old);
  };
}

export function admitDeleteValidating(ctx: RegistryContext, r: ServedResource, name: string, attrs: AdmissionAttributes): void {
  for (const p of pluginsFor(ctx, r)) p.validateDelete?.(ctx, r, name, attrs);
}

export async function admitConnectValidating(ctx: RegistryContext, r: ServedResource, attrs: AdmissionAttributes): Promise<void> {
  for (const p of pluginsFor(ctx, r)) await p.validateConnect?.(ctx, r, attrs);
}
