import { afterEach, describe, expect, it } from 'vitest';
import { startFloorServer, type FloorServer } from './floor-server';
import { concurrent, hit, makeAgent, quantile, sequential } from './http-client';

let floor: FloorServer | undefined;
afterEach(async () => {
  await floor?.close();
  floor = undefined;
});

describe('bench helpers', () => {
  it('quantile picks the sample at the given rank', () => {
    expect(quantile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(quantile([5, 1, 3, 2, 4], 0.99)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('the floor server answers exactly the configured number of bytes and status', async () => {
    floor = await startFloorServer(10);
    const agent = makeAgent(1);
    expect(await hit(agent, floor.url, 'GET', '/x')).toEqual({ status: 200, bytes: 10, body: '' });
    floor.setBody(1234, 201);
    const r = await hit(agent, floor.url, 'POST', '/x', '{"a":1}', true);
    expect(r.status).toBe(201);
    expect(r.bytes).toBe(1234);
    expect(r.body).toBe('x'.repeat(1234));
    const head = await hit(agent, floor.url, 'GET', '/x', undefined, 100);
    expect(head.bytes).toBe(1234);
    expect(head.body).toBe('x'.repeat(100));
    agent.destroy();
  });

  it('sequential returns one latency per call and concurrent runs every operation', async () => {
    floor = await startFloorServer(3);
    const agent = makeAgent(4);
    const lat = await sequential(5, () => hit(agent, floor!.url, 'GET', '/'));
    expect(lat).toHaveLength(5);
    expect(lat.every((ms) => ms > 0)).toBe(true);
    const seen = new Set<number>();
    const rate = await concurrent(20, 4, async (i) => {
      seen.add(i);
      await hit(agent, floor!.url, 'GET', '/');
    });
    expect(seen.size).toBe(20);
    expect(rate).toBeGreaterThan(0);
    agent.destroy();
  });
});
