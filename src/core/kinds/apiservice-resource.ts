// The served APIService resource (apiregistration.k8s.io/v1), as the hooks and the availability
// controller both look it up.
import type { RegistryContext } from '../registry/context';
import type { ServedResource } from '../registry/catalog';

export function apiServiceResource(ctx: RegistryContext): ServedResource | undefined {
  return ctx.catalog.lookup('apiregistration.k8s.io', 'v1', 'apiservices');
}
