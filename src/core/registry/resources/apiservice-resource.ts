// The served APIService resource (apiregistration.k8s.io/v1), as the hooks and the availability
// controller both look it up.
import type { RegistryContext } from '../context';
import type { ServedResource } from '../catalog';

export function apiServiceResource(ctx: RegistryContext): ServedResource | undefined {
  return ctx.catalog.lookup('apiregistration.k8s.io', 'v1', 'apiservices');
}
