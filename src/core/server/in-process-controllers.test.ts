import { describe, expect, it } from 'vitest';
import { IN_PROCESS_CONTROLLERS, InProcessControllers, type InProcessDeps } from './in-process-controllers';
import { parseControllers } from '../controllers/controllers-flag';
import type { InProcessController } from '../registry/in-process-controller';

const deps = { ctx: {}, saTokens: {} } as unknown as InProcessDeps;

function recorder(log: string[], name: string): () => InProcessController {
  return () => ({
    name,
    start: async () => void log.push(`start ${name}`),
    stop: () => void log.push(`stop ${name}`),
  });
}

describe('the in-process controllers', () => {
  it('are kube-controller-manager controllers, in start order', () => {
    const names = new InProcessControllers(deps, () => true).all.map((c) => c.name);
    expect(names).toEqual(['serviceaccount-token', 'disruption', 'garbagecollector', 'resourcequota', 'root-ca-cert-publisher']);
    // Every name is one --controllers accepts.
    expect(() => parseControllers(names.map((n) => `-${n}`).join(','))).not.toThrow();
    expect(IN_PROCESS_CONTROLLERS).toHaveLength(names.length);
  });

  it('start in list order the ones --controllers enables, and stop them all', async () => {
    const log: string[] = [];
    const set = new InProcessControllers(deps, (name) => name !== 'b', [recorder(log, 'a'), recorder(log, 'b'), recorder(log, 'c')]);
    await set.start();
    set.stop();
    expect(log).toEqual(['start a', 'start c', 'stop a', 'stop b', 'stop c']);
  });
});
