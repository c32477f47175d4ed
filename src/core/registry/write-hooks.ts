// The hooks around writes of each kind, keyed by the one kind key (`group/Kind`, kinds/): the
// kind's own (from its spec) and those of components following its writes (RBAC, flow control,
// token controllers). Adding never replaces: hooks added for the same kind run in the order they
// were added, and a write answers only after all of them (decision 0039).
import type { Reservation, ResourceHooks } from './context';

type Fn<A extends unknown[], R> = ((...args: A) => R) | undefined;

function sequence<A extends unknown[]>(first: Fn<A, void | Promise<void>>, then: Fn<A, void | Promise<void>>): Fn<A, void | Promise<void>> {
  if (!first || !then) return first ?? then;
  return async (...args: A): Promise<void> => {
    await first(...args);
    await then(...args);
  };
}

function syncSequence<A extends unknown[]>(first: Fn<A, void>, then: Fn<A, void>): Fn<A, void> {
  if (!first || !then) return first ?? then;
  return (...args: A): void => {
    first(...args);
    then(...args);
  };
}

function bothReservations(a: Reservation | void, b: Reservation | void): Reservation | void {
  if (!a || !b) return a ?? b;
  return {
    undo() {
      b.undo();
      a.undo();
    },
    commit() {
      a.commit?.();
      b.commit?.();
    },
  };
}

/** `then` runs after `first`; what both reserved is given back (or committed) together. */
export function composeHooks(first: ResourceHooks, then: ResourceHooks): ResourceHooks {
  if (first.markDeleted && then.markDeleted) throw new Error('two hooks mark deletions of the same kind');
  const out: ResourceHooks = {
    validate:
      first.validate && then.validate ? (ctx, r, obj, old) => [...first.validate!(ctx, r, obj, old), ...then.validate!(ctx, r, obj, old)] : (first.validate ?? then.validate),
    afterCreate: sequence(first.afterCreate, then.afterCreate),
    afterUpdate: sequence(first.afterUpdate, then.afterUpdate),
    afterDelete: sequence(first.afterDelete, then.afterDelete),
    admitDelete: syncSequence(first.admitDelete, then.admitDelete),
    markDeleted: first.markDeleted ?? then.markDeleted,
  };
  if (first.beforeCreate && then.beforeCreate) {
    const a = first.beforeCreate;
    const b = then.beforeCreate;
    out.beforeCreate = async (ctx, r, obj, attrs) => {
      const held = await a(ctx, r, obj, attrs);
      try {
        return bothReservations(held, await b(ctx, r, obj, attrs));
      } catch (err) {
        held?.undo();
        throw err;
      }
    };
  } else out.beforeCreate = first.beforeCreate ?? then.beforeCreate;
  if (first.beforeUpdate && then.beforeUpdate) {
    const a = first.beforeUpdate;
    const b = then.beforeUpdate;
    out.beforeUpdate = (ctx, r, next, old, attrs) => {
      const held = a(ctx, r, next, old, attrs);
      try {
        return bothReservations(held, b(ctx, r, next, old, attrs));
      } catch (err) {
        held?.undo();
        throw err;
      }
    };
  } else out.beforeUpdate = first.beforeUpdate ?? then.beforeUpdate;
  for (const k of Object.keys(out) as (keyof ResourceHooks)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** `group/Kind`: a Kind starts with a capital letter, a resource never does. */
const KIND_KEY = /^[a-z0-9.-]*\/[A-Z][A-Za-z0-9]*$/;

export class WriteHooks {
  private readonly byKey = new Map<string, ResourceHooks>();

  /** Adds hooks to a kind's (`kindKey(group, kind)`, or CUSTOM_RESOURCES): they run after those added before. */
  add(key: string, hooks: ResourceHooks): void {
    // Keys were `group/resource` before decision 0039: such a key would silently never match.
    if (key !== CUSTOM_RESOURCES && !KIND_KEY.test(key)) throw new Error(`write hooks are keyed group/Kind (kindKey), not ${JSON.stringify(key)}`);
    const have = this.byKey.get(key);
    this.byKey.set(key, have ? composeHooks(have, hooks) : hooks);
  }

  get(key: string): ResourceHooks | undefined {
    return this.byKey.get(key);
  }
}

/** The key of the hooks every custom resource (CRD-backed) has. */
export const CUSTOM_RESOURCES = '*custom*';
