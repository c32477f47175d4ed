// Test helper: an API server with the simulated cluster on a virtual clock. Used only by
// *.test.ts files; it imports nothing from vitest.
import type { ApiServerOptions } from '../api';
import { startTestServer, type TestClient } from './api-server';
import { VirtualClock } from '../controllers/clock';
import type { ClusterOptions } from '../controllers/controller';
import type { ControllerManager } from '../controllers/manager';

export interface ClusterTest extends TestClient {
  clock: VirtualClock;
  controllers: ControllerManager;
  /** Moves the virtual clock forward, letting the controllers finish each step's work. */
  advance(ms: number): Promise<void>;
  settle(): Promise<void>;
}

export async function startCluster(controllers = '*', cluster: Partial<ClusterOptions> = {}, server: ApiServerOptions = {}): Promise<ClusterTest> {
  const clock = new VirtualClock();
  const t = await startTestServer({ ...server, controllers, clock, cluster });
  const c = t.api.controllers!;
  await c.runUntilIdle();
  return Object.assign(t, { clock, controllers: c, advance: (ms: number) => c.advance(ms), settle: () => c.runUntilIdle() });
}

export function deployment(name: string, replicas: number, image = 'nginx', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: image.split(':')[0].split('/').pop(), image }] } },
      ...extra,
    },
  };
}
