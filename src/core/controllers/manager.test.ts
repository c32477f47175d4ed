import { describe, expect, it } from 'vitest';
import { CONTROLLERS, controllerNames, type ControllerEntry, type ControllerPart } from './controller-list';
import { ControllerManager } from './manager';
import { parseControllers } from './controllers-flag';
import type { ServerStore } from './controller';

// The recorders never touch the store.
const server = {} as ServerStore;
const noApi = async () => ({ status: 200, headers: {}, body: '' });

function recorder(log: string[], name: string, part: ControllerPart = 'api'): ControllerEntry {
  return {
    part,
    make: () => ({
      name,
      start: async () => void log.push(`start ${name}`),
      stop: () => void log.push(`stop ${name}`),
    }),
  };
}

describe('the API controllers', () => {
  it('are kube-controller-manager controllers, in start order', () => {
    const names = new ControllerManager(noApi, { server }).apiControllers.map((c) => c.name);
    expect(names).toEqual(['serviceaccount-token', 'disruption', 'garbagecollector', 'resourcequota', 'root-ca-cert-publisher']);
    // Every name is one --controllers accepts.
    expect(() => parseControllers(names.map((n) => `-${n}`).join(','))).not.toThrow();
    expect(controllerNames('api')).toEqual(names);
    expect(CONTROLLERS.filter((e) => e.part === 'api')).toHaveLength(names.length);
  });

  it('start in list order the ones --controllers enables, and stop them all', async () => {
    const log: string[] = [];
    const list = [recorder(log, 'job'), recorder(log, 'cronjob'), recorder(log, 'podgc')];
    const manager = new ControllerManager(noApi, { server, list, selection: '*,-cronjob' });
    await manager.start();
    manager.stop();
    expect(log).toEqual(['start job', 'start podgc', 'stop job', 'stop cronjob', 'stop podgc']);
  });
});

describe('one list, two parts', () => {
  const list = (log: string[]) => [recorder(log, 'garbagecollector'), recorder(log, 'nodes', 'cluster'), recorder(log, 'scheduler', 'cluster')];

  it('without --controllers runs the API part only, and no simulated cluster', async () => {
    const log: string[] = [];
    const manager = new ControllerManager(noApi, { server, list: list(log) });
    await manager.start();
    expect(manager.simulatesCluster).toBe(false);
    expect(manager.enabled).toEqual([]);
    expect(log).toEqual(['start garbagecollector']);
  });

  it('with --controllers starts the API part first, then the cluster in list order; a shutdown stops the cluster first', async () => {
    const log: string[] = [];
    const manager = new ControllerManager(noApi, { server, list: list(log), selection: '*' });
    await manager.start();
    expect(manager.enabled).toEqual(['nodes', 'scheduler']);
    expect(log.splice(0)).toEqual(['start garbagecollector', 'start nodes', 'start scheduler']);
    manager.stopCluster();
    expect(log.splice(0)).toEqual(['stop scheduler', 'stop nodes']);
    manager.stop();
    expect(log).toEqual(['stop garbagecollector']);
  });

  it('starts no simulated component once a shutdown has stopped the cluster', async () => {
    const log: string[] = [];
    const manager = new ControllerManager(noApi, { server, list: list(log), selection: '*' });
    manager.stopCluster();
    await manager.start();
    expect(log).toEqual(['start garbagecollector']);
    manager.stop();
  });

  it('an empty --controllers runs nothing', async () => {
    const log: string[] = [];
    await new ControllerManager(noApi, { server, list: list(log), selection: '' }).start();
    expect(log).toEqual([]);
  });
});
