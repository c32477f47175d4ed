// Every lesson against the real API core: before its request a step's check says "not yet";
// after the learner's canonical request(s) it says "done"; "Reset this step" (prepareStep) makes
// the check fail again where the step changed the cluster. Cluster lessons run with the simulated
// cluster on a paused playground clock (its endpoint answered as the browser host answers it),
// and the controllers settle after every write, as a learner would wait for them. Watches are read
// to their end (their timeoutSeconds), as the page reads them; a lesson's API settings (a short
// history window) are the server's start-up options here, as the page applies them in the
// browser host.
import { describe, expect, it } from 'vitest';
import { createApiServer, type ApiServer } from '../../core/api';
import { PlaygroundClock } from '../../core/controllers/clock';
import { createClockAdmin } from '../../hosts/sw/clock-admin';
import type { ApiRuntime } from '../../hosts/sw/api-runtime';
import { isStream } from '../../core/meta/types';
import { bodyText } from '../../core/codec/json';
import { parseHistoryWindow } from '../../core/server/history-window';
import { lessonApi, prepareStep, type Fetch } from '../lib/lesson-runner';
import { LESSONS } from './catalog';
import type { Lesson, LessonAnswer } from './types';
import { tokenFromAnswer, tokenToFill } from './watch-answers';

/** A streamed body as text: every chunk the stream writes until it ends. */
function readStream(body: { start(sink: { write(c: string | Uint8Array): boolean; end(): void }): void }): Promise<string> {
  return new Promise((resolve) => {
    const decoder = new TextDecoder();
    let text = '';
    body.start({
      write(chunk) {
        text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
        return true;
      },
      end: () => resolve(text),
    });
  });
}

async function coreFetch(lesson: Lesson): Promise<{ fetch: Fetch; step(ms: number): Promise<void>; close(): Promise<void> }> {
  const historyWindow = lesson.apiSettings?.historyWindow;
  const clock = new PlaygroundClock({ start: Date.UTC(2022, 0, 1), paused: true });
  const server: ApiServer = await createApiServer({
    ...(historyWindow ? { historyWindowMs: parseHistoryWindow(historyWindow) } : {}),
    ...(lesson.cluster ? { controllers: '*', clock } : {}),
  });
  const clockAdmin = createClockAdmin({ server: async () => server } as ApiRuntime, clock);
  await server.controllers?.runUntilIdle();
  const fetch: Fetch = async (url, init) => {
    if (url.startsWith('/__playground/clock')) {
      const answer = init.method === 'POST' ? await clockAdmin.act(JSON.parse(init.body ?? '{}')) : await clockAdmin.read();
      const text = JSON.stringify(typeof answer === 'string' ? { message: answer } : answer);
      return { status: typeof answer === 'string' ? 400 : 200, text: async () => text };
    }
    const res = await handleSettled(server, init.method, url, init);
    const text = isStream(res.body) ? await readStream(res.body) : bodyText(res.body);
    return { status: res.status, text: async () => text };
  };
  return {
    fetch,
    // A learner following a hint such as "step the clock" (the HPA syncs every 15 s of cluster time).
    step: async (ms) => void (await clockAdmin.act({ action: 'step', ms })),
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

/** A path ending in `continue=` or `resourceVersion=` gets the token of the latest earlier answer that has one, as a learner copies it. */
function filled(path: string, earlier: LessonAnswer[]): string {
  const param = tokenToFill(path);
  if (!param) return path;
  const token = earlier.map((a) => tokenFromAnswer(a.body, param)).filter(Boolean).pop() ?? '';
  return path + encodeURIComponent(token);
}

describe('lessons', () => {
  it('has at least ten lessons with unique ids, each with steps', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(10);
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    for (const l of LESSONS) expect(l.steps.length).toBeGreaterThan(0);
  });

  for (const lesson of LESSONS) {
    // A lesson with a history window has a step that waits it out (a 410 needs an expired version).
    const patienceMs = lesson.apiSettings ? parseHistoryWindow(lesson.apiSettings.historyWindow) + 20_000 : 0;
    it(`${lesson.id}: each step is not done before its requests and done after them`, { timeout: 30_000 + 2 * patienceMs }, async () => {
      const core = await coreFetch(lesson);
      try {
        const api = lessonApi('', core.fetch);
        await prepareStep(api, lesson, 0);
        const steps = lesson.steps;
        for (const [i, step] of steps.entries()) {
          const before = await step.check(api, undefined);
          expect(before.done, `${lesson.id} step ${i + 1} before: ${before.message}`).toBe(false);
          const answers: LessonAnswer[] = [];
          for (const req of step.requests) answers.push(await api.send({ ...req, path: filled(req.path, answers) }));
          let after = await step.check(api, answers.at(-1));
          // On a paused clock the learner steps it until the controllers have acted (at most a minute).
          for (let t = 0; lesson.cluster && !after.done && t < 4; t++) {
            await core.step(15_000);
            after = await step.check(api, answers.at(-1));
          }
          // The learner waits and sends the last request again (a version expiring takes the window).
          for (const deadline = Date.now() + patienceMs; !after.done && Date.now() < deadline; ) {
            await new Promise((r) => setTimeout(r, 1000));
            const req = step.requests.at(-1)!;
            answers.push(await api.send({ ...req, path: filled(req.path, answers.slice(0, -1)) }));
            after = await step.check(api, answers.at(-1));
          }
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
