// Every lesson against the real API core: before its request a step's check says "not yet";
// after the learner's canonical request(s) it says "done"; "Reset this step" (prepareStep) makes
// the check fail again where the step changed the cluster.
import { describe, expect, it } from 'vitest';
import { createApiServer } from '../../core/api';
import { isStream } from '../../core/types';
import { bodyText } from '../../core/codec/json';
import { lessonApi, prepareStep, type Fetch } from '../lib/lesson-runner';
import { LESSONS } from './catalog';

async function coreFetch(): Promise<{ fetch: Fetch; close(): Promise<void> }> {
  const server = await createApiServer();
  const fetch: Fetch = async (url, init) => {
    const res = await server.handle({ method: init.method, url, headers: Object.fromEntries(Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])), body: init.body === undefined ? undefined : new TextEncoder().encode(init.body) });
    const text = isStream(res.body) ? '' : bodyText(res.body);
    return { status: res.status, text: async () => text };
  };
  return { fetch, close: () => server.close() };
}

describe('lessons', () => {
  it('has at least ten lessons with unique ids, each with steps', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS) expect(l.steps.length).toBeGreaterThan(0);
  });

  for (const lesson of LESSONS) {
    it(`${lesson.id}: each step is not done before its requests and done after them`, async () => {
      const core = await coreFetch();
      try {
        const api = lessonApi('', core.fetch);
        await prepareStep(api, lesson, 0);
        for (const [i, step] of lesson.steps.entries()) {
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
