// Every lesson against the real API core: before its request a step's check says "not yet";
// after the learner's canonical request(s) it says "done"; "Reset this step" (prepareStep) makes
// the check fail again where the step changed the cluster. Cluster lessons run with the simulated
// cluster on a paused playground clock (its endpoint answered as the browser host answers it),
// and the controllers settle after every write, as a learner would wait for them.
import { describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../../core/api';
import { PlaygroundClock } from '../../core/controllers/clock';
import { CONTROLLER_NAMES } from '../../core/controllers/manager';
import { createClockAdmin } from '../../hosts/sw/clock-admin';
import type { ApiRuntime } from '../../hosts/sw/api-runtime';
import { isStream } from '../../core/types';
import { bodyText } from '../../core/codec/json';
import { lessonApi, prepareStep, type Fetch } from '../lib/lesson-runner';
import { LESSONS } from './catalog';

async function coreFetch(cluster = false): Promise<{ fetch: Fetch; close(): Promise<void> }> {
  const clock = new PlaygroundClock({ start: Date.UTC(2022, 0, 1) });
  clock.pause();
  const server: ApiServer = cluster ? await createApiServer({ controllers: '*', clock }) : await createApiServer();
  const clockAdmin = createClockAdmin({ server: async () => server } as ApiRuntime, clock);
  await server.controllers?.runUntilIdle();
  const fetch: Fetch = async (url, init) => {
    if (url.startsWith('/__playground/clock')) {
      const answer = init.method === 'POST' ? await clockAdmin.act(JSON.parse(init.body ?? '{}')) : await clockAdmin.read();
      const text = JSON.stringify(typeof answer === 'string' ? { message: answer } : answer);
      return { status: typeof answer === 'string' ? 400 : 200, text: async () => text };
    }
    const res = await handleSettled(server, init.method, url, init);
    const text = isStream(res.body) ? '' : bodyText(res.body);
    return { status: res.status, text: async () => text };
  };
  return {
    fetch,
    async close() {
      await server.close();
      clock.dispose();
    },
  };
}

/** One request; after a write the controllers finish what it started before the answer is read. */
async function handleSettled(server: ApiServer, method: string, url: string, init: Parameters<Fetch>[1]) {
  const res = await server.handle({ method, url, headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])), body: init.body === undefined ? undefined : new TextEncoder().encode(init.body) });
  if (method !== 'GET') await server.controllers?.runUntilIdle();
  return res;
}

/** The HPA lesson's steps after the first need the HPA controller, written in parallel with it. */
const HPA_RUNS = CONTROLLER_NAMES.includes('horizontalpodautoscaling');

describe('lessons', () => {
  it('has at least ten lessons with unique ids, each with steps', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS) expect(l.steps.length).toBeGreaterThan(0);
  });

  for (const lesson of LESSONS) {
    it(`${lesson.id}: each step is not done before its requests and done after them`, async () => {
      const core = await coreFetch(lesson.cluster);
      try {
        const api = lessonApi('', core.fetch);
        await prepareStep(api, lesson, 0);
        const steps = lesson.id === 'hpa-vs-apply' && !HPA_RUNS ? lesson.steps.slice(0, 1) : lesson.steps;
        for (const [i, step] of steps.entries()) {
          const before = await step.check(api, undefined);
          expect(before.done, `${lesson.id} step ${i + 1} before: ${before.message}`).toBe(false);
          let last;
          for (const req of step.requests) {
            // The paging lesson's second request carries the token the first answer gave.
            const token = lesson.id === 'paging' && req.path.endsWith('continue=') ? (JSON.parse(last!.body) as { metadata: { continue: string } }).metadata.continue : '';
            last = await api.send({ ...req, path: req.path + encodeURIComponent(token) });
          }
          const after = await step.check(api, last);
          expect(after.done, `${lesson.id} step ${i + 1} after: ${after.message}`).toBe(true);
        }
        // Reset to the last step's start: its check is not done again.
        const lastIndex = lesson.steps.length - 1;
        await prepareStep(api, lesson, lastIndex);
        expect((await lesson.steps[lastIndex]!.check(api, undefined)).done).toBe(false);
      } finally {
        await core.close();
      }
    });
  }
});
