// Puts every kind's own hooks on a new API server's context, from the kinds' specs (decision 0039).
import type { RegistryContext } from '../registry/context';
import { CUSTOM_RESOURCES } from '../registry/write-hooks';
import { customResourceHooks } from '../crd/hooks';
import { followCrdsWithApiServices } from './apiservices';
import { allKindSpecs, kindKey, type KindHookEnv } from './index';

export function installKindHooks(ctx: RegistryContext, env: Omit<KindHookEnv, 'ctx'>): void {
  for (const spec of allKindSpecs()) if (spec.hooks) ctx.hooks.add(kindKey(spec.group, spec.kind), spec.hooks({ ...env, ctx }));
  ctx.hooks.add(CUSTOM_RESOURCES, customResourceHooks());
  // After the CRD's own hooks: a CRD write is answered after its APIServices follow.
  followCrdsWithApiServices(ctx);
}
