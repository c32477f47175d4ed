import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterEach, describe, expect, it } from 'vitest';
import { hit, makeAgent } from './http-client';
import { startRelayServer, type RelayServer } from './relay-server';

let relay: RelayServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await relay?.close();
  relay = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('relay floor', () => {
  it('answers each POST with the configured bytes after a durable put of the stored record under a fresh key', async () => {
    dir = await mkdtemp(join(tmpdir(), 'relay-test-'));
    relay = await startRelayServer({ kind: 'lmdb', path: join(dir, 'env'), putPrefix: '/registry/configmaps/default/r-', stored: '{"metadata":{"name":"r"}}' });
    await relay.setAnswers(321, 7);
    const agent = makeAgent(1);
    const created = await hit(agent, relay.url, 'POST', '/api/v1/namespaces/default/configmaps', '{}');
    const again = await hit(agent, relay.url, 'POST', '/api/v1/namespaces/default/configmaps', '{}');
    const got = await hit(agent, relay.url, 'GET', '/api/v1/namespaces/default/configmaps/r');
    agent.destroy();
    expect([created.status, created.bytes, again.status, got.status, got.bytes]).toEqual([201, 321, 201, 200, 7]);
    await relay.close();
    relay = undefined;
    // The two puts are in the environment, each under a key of its own.
    const env = open({ path: join(dir, 'env'), readOnly: true, maxDbs: 4 });
    const objects = env.openDB<{ v: string; c: number; m: number }, string>({ name: 'objects' });
    const stored = [...objects.getRange()].map(({ key, value }) => [key, value.v]);
    await env.close();
    expect(stored).toEqual([
      ['/registry/configmaps/default/r-0', '{"metadata":{"name":"r"}}'],
      ['/registry/configmaps/default/r-1', '{"metadata":{"name":"r"}}'],
    ]);
  });
});
