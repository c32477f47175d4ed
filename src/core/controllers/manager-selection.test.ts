import { describe, expect, it } from 'vitest';
import { CONTROLLER_NAMES } from './controller-list';
import type { ServerStore } from './controller';

describe('--controllers for the simulated cluster', () => {
  it('* turns every component on; -name turns one off; a name alone turns only it on; kube names are accepted', async () => {
    const { ControllerManager } = await import('./manager');
    // Never started: the store is not used.
    const server = {} as ServerStore;
    const enabled = (selection: string) => new ControllerManager(async () => ({ status: 200, headers: {}, body: '' }), { selection, server }).enabled;
    expect(enabled('*')).toEqual(CONTROLLER_NAMES);
    expect(enabled('*,-scheduler')).toEqual(CONTROLLER_NAMES.filter((n) => n !== 'scheduler'));
    expect(enabled('deployment')).toEqual(['deployment']);
    expect(enabled('')).toEqual([]);
    // An explicit name wins over *, wherever it stands; names of kube's other controllers are fine.
    expect(enabled('-nodes,*,-serviceaccount-token')).toEqual(CONTROLLER_NAMES.filter((n) => n !== 'nodes'));
  });
  it('knows the simulated components in start order', () => {
    expect(CONTROLLER_NAMES).toEqual(['nodes', 'kubelet', 'scheduler', 'replicaset', 'deployment', 'replicationcontroller', 'statefulset', 'daemonset', 'endpoint', 'endpointslice', 'horizontalpodautoscaling', 'metrics-server', 'endpointslicemirroring', 'nodelifecycle', 'persistentvolume-binder', 'storage-provisioner', 'csrapproving', 'csrsigning', 'job', 'cronjob', 'ttl-after-finished', 'podgc']);
  });
});

describe('createApiServer({ controllers })', () => {
  it('fails start-up on an unknown controller name, as a StartupError', async () => {
    const { createApiServer } = await import('../api');
    const { StartupError } = await import('../server/runtime-config');
    const failed = await createApiServer({ controllers: '*,-nope' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(StartupError);
    expect((failed as Error).message).toBe('"nope" is not in the list of known controllers');
  });
});
