import { specFor } from '../kinds';
import { describe, expect, it } from 'vitest';
import { ADMISSION_PLUGINS } from './register';
import { Catalog, type ServedResource } from '../registry/catalog';
import { builtinResources } from '../schema';
import { admitCreateMutating, prepareUpdateValidating } from '../registry/admission-plugin';
import type { AdmissionPlugin } from '../registry/admission-plugin';
import type { RegistryContext } from '../registry/context';

const catalog = new Catalog([...builtinResources], specFor);
const served = (group: string, version: string, resource: string): ServedResource => catalog.lookup(group, version, resource)!;
const pluginsOf = (r: ServedResource) => ADMISSION_PLUGINS.filter((p) => p.handles(r)).map((p) => p.name);

describe('the admission chain', () => {
  it('lists the built-in plug-ins in kube-apiserver order', () => {
    expect(ADMISSION_PLUGINS.map((p) => p.name)).toEqual(['WebhookConfigurationDefaults', 'LimitRanger', 'Priority', 'DefaultTolerationSeconds', 'DefaultStorageClass', 'ResourceQuota', 'PodSecurity']);
  });

  it('gives each resource the plug-ins that look at it', () => {
    expect(pluginsOf(served('', 'v1', 'pods'))).toEqual(['LimitRanger', 'Priority', 'DefaultTolerationSeconds', 'ResourceQuota', 'PodSecurity']);
    expect(pluginsOf(served('', 'v1', 'persistentvolumeclaims'))).toEqual(['DefaultStorageClass', 'ResourceQuota']);
    expect(pluginsOf(served('', 'v1', 'services'))).toEqual(['ResourceQuota']);
    expect(pluginsOf(served('', 'v1', 'replicationcontrollers'))).toEqual(['ResourceQuota', 'PodSecurity']);
    expect(pluginsOf(served('batch', 'v1', 'cronjobs'))).toEqual(['PodSecurity']);
    expect(pluginsOf(served('admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations'))).toEqual(['WebhookConfigurationDefaults']);
    expect(pluginsOf(served('', 'v1', 'nodes'))).toEqual([]);
  });

  it('runs a phase plug-in by plug-in in list order, and joins the update checks', async () => {
    const log: string[] = [];
    const plugin = (name: string): AdmissionPlugin => ({
      name,
      handles: () => true,
      mutateCreate: () => void log.push(`mutate ${name}`),
      prepareUpdateValidation: async () => () => void log.push(`check ${name}`),
    });
    const ctx = { admission: [plugin('a'), plugin('b')] } as unknown as RegistryContext;
    const r = served('', 'v1', 'pods');
    await admitCreateMutating(ctx, r, {});
    (await prepareUpdateValidating(ctx, r, 'ns'))!({}, {});
    expect(log).toEqual(['mutate a', 'mutate b', 'check a', 'check b']);
  });
});
