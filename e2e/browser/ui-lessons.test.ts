// The lessons through the page only: a learner's clicks and typing. Every lesson is completed
// step by step, each step's check (read from the API's watch) passing; one step is failed on
// purpose and shows its hint; progress survives a reload. Screenshots of the welcome screen and a
// lesson at 1440×900 and 1024×768, light and dark, go to test-results/ui-screenshots/.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotViews, useUiSession } from './harness';
import { LESSONS } from '../../src/ui/lessons/catalog';
import { tokenFromAnswer, tokenToFill } from '../../src/ui/lessons/watch-answers';

let page: Page;
useUiSession((s) => (page = s.page));

const check = () => page.getByTestId('step-check');

async function sendCard(index: number): Promise<void> {
  const card = page.getByRole('region', { name: `Request ${index + 1}` });
  const answers = await card.getByTestId('answer-status').count();
  await card.getByRole('button', { name: 'Send' }).click();
  if (answers === 0) await card.getByTestId('answer-status').waitFor();
}

const shots = (name: string) => screenshotViews(page, name);

describe('lessons in the page', () => {
  it('welcomes a first-time learner with a way in', async () => {
    await page.evaluate(() => (location.hash = '#/'));
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Learn Kubernetes field ownership by doing it');
    await shots('welcome');
    await page.getByRole('link', { name: /Start the first lesson/ }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/learn/managed-fields/1');
    await page.getByRole('heading', { name: 'What managedFields are' }).waitFor();
  });

  it('fails a step on purpose, sees the hint, then passes it', async () => {
    await page.evaluate(() => (location.hash = '#/learn/conflict/1'));
    await expect.poll(() => check().innerText()).toMatch(/^Not yet/);
    await sendCard(0);
    await expect.poll(() => check().innerText(), { timeout: 10_000 }).toMatch(/^✓ Done/);
    await page.getByRole('link', { name: 'Next step' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/learn/conflict/2');
    // bob types another value than alice's: a 409, the check stays "not yet", the hint shows.
    const body = page.getByRole('textbox', { name: 'Request 1 body' });
    await body.fill((await body.inputValue()).replace('replicas: "2"', 'replicas: "7"'));
    await sendCard(0);
    await expect.poll(() => page.getByTestId('answer-status').innerText()).toMatch(/^409/);
    await expect.poll(() => check().innerText()).toMatch(/^Not yet/);
    await expect.poll(() => page.getByTestId('hint').innerText()).toContain('exactly "2"');
    await shots('lesson-hint');
    await body.fill((await body.inputValue()).replace('replicas: "7"', 'replicas: "2"'));
    await sendCard(0);
    await expect.poll(() => check().innerText(), { timeout: 10_000 }).toMatch(/^✓ Done/);
  });

  // The watches lesson waits out a 20 s history window: longer than the default timeout.
  it('completes every lesson through the page', { timeout: 360_000 }, async () => {
    for (const lesson of LESSONS) {
      await page.evaluate((h) => (location.hash = h), `#/learn/${lesson.id}/1`);
      if (lesson.apiSettings) {
        // The watches lesson asks for a short history window: one click restarts the API with it.
        await page.getByRole('button', { name: `Use a ${lesson.apiSettings.historyWindow} history window` }).click();
        await expect.poll(() => page.getByTestId('lesson-settings').innerText(), { timeout: 20_000 }).toContain(`keeps ${lesson.apiSettings.historyWindow} of history`);
        await shots('lesson-watches');
      }
      for (const [i, step] of lesson.steps.entries()) {
        await page.getByRole('heading', { name: `Step ${i + 1} of ${lesson.steps.length}: ${step.title}` }).waitFor();
        await expect.poll(() => check().innerText(), { message: `${lesson.id} ${i + 1} before` }).toMatch(/^(Not yet|✓ Done)/);
        const fillAndSend = async (r: number) => {
          const path = page.getByRole('textbox', { name: `Request ${r + 1} path` });
          const param = tokenToFill(step.requests[r]!.path);
          if (param) {
            // Paging's continue token, a watch's bookmark or a list's resourceVersion: read from
            // the answers above, as the learner copies it, and typed at the end of the path.
            let token = '';
            for (let a = 0; a < r; a++) {
              const answer = page.getByRole('region', { name: `Request ${a + 1}` }).locator('details.answer');
              if (!(await answer.count())) continue;
              token = tokenFromAnswer(await answer.locator('pre').textContent() ?? '', param) || token;
            }
            await path.fill(step.requests[r]!.path + encodeURIComponent(token));
          }
          await sendCard(r);
        };
        for (let r = 0; r < step.requests.length; r++) await fillAndSend(r);
        // A version expiring takes the history window: the learner waits and sends the last request again.
        const deadline = Date.now() + (lesson.apiSettings ? 45_000 : 0);
        while (Date.now() < deadline && !/^✓ Done/.test(await check().innerText())) {
          await page.waitForTimeout(2000);
          await fillAndSend(step.requests.length - 1);
        }
        // A controller acts on its own schedule (the HPA every 15 s of cluster time): a learner who
        // has waited a few seconds follows the hint and steps the header's clock.
        const isDone = async () => /^✓ Done/.test(await check().innerText());
        for (const until = Date.now() + 5000; lesson.cluster && Date.now() < until && !(await isDone()); ) await page.waitForTimeout(250);
        for (let t = 0; lesson.cluster && t < 4 && !(await isDone()); t++) {
          await page.getByRole('button', { name: 'Step the cluster clock forward 10s' }).click();
          await page.waitForTimeout(1000);
        }
        await expect.poll(() => check().innerText(), { message: `${lesson.id} step ${i + 1}`, timeout: 10_000 }).toMatch(/^✓ Done/);
        if (lesson.id === 'list-types' && i === 0) await shots('lesson-done');
        if (lesson.id === 'watches' && i === 3) await shots('lesson-watch-410');
        const next = page.getByRole('link', { name: /^Next (step|lesson)/ });
        if (await next.count()) await next.click();
      }
    }
    // Progress is kept: after a reload the list says every lesson is done.
    await page.evaluate(() => (location.hash = '#/learn'));
    await page.reload();
    await expect.poll(() => page.locator('.lesson-state.done').count(), { timeout: 15_000 }).toBe(LESSONS.length);
    await shots('lesson-list');
  });
});
