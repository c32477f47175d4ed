import { describe, expect, it } from 'vitest';
import { parseControllerSelection } from './selection';
import { CONTROLLER_NAMES } from './manager';

describe('--controllers', () => {
  const known = ['nodes', 'scheduler', 'deployment'];
  it('* turns every controller on; -name turns one off; a name alone turns only it on', () => {
    expect([...parseControllerSelection('*', known)]).toEqual(known);
    expect([...parseControllerSelection('*,-scheduler', known)]).toEqual(['nodes', 'deployment']);
    expect([...parseControllerSelection('deployment', known)]).toEqual(['deployment']);
    expect([...parseControllerSelection('', known)]).toEqual([]);
    // An explicit name wins over *, wherever it stands.
    expect([...parseControllerSelection('-nodes,*', known)]).toEqual(['scheduler', 'deployment']);
  });
  it('refuses unknown names as kube-controller-manager does', () => {
    expect(() => parseControllerSelection('*,-job', known)).toThrow('"job" is not in the list of known controllers');
  });
  it('knows the simulated components in start order', () => {
    expect(CONTROLLER_NAMES).toEqual(['nodes', 'kubelet', 'scheduler', 'replicaset', 'deployment', 'endpoint', 'endpointslice']);
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
