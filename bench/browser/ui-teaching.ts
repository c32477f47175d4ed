// The teaching screens' budgets in headless Chromium: the welcome screen's warm load to
// interactive; the inline ownership of a 2,000-line object, timed from the object's response to
// the last owned line on screen; and scrubbing an ownership timeline of 1,000 revisions (frame
// times while the revision slider moves one step per frame). Numbers only; nothing asserts.
import type { Browser, Page } from 'playwright-core';
import { openApp, pageFetch } from '../../e2e/browser/harness';

export interface TeachingReport {
  welcomeWarmMs: number[];
  welcomeWarmP50Ms: number;
  ownershipLines: number;
  ownershipRenderMs: number[];
  ownershipRenderP50Ms: number;
  timelineRevisions: number;
  scrubFrames: number;
  scrubFrameP50Ms: number;
  scrubFrameP95Ms: number;
}

const MARK_WELCOME = `(() => {
  const observer = new MutationObserver(() => {
    if (!document.querySelector('.welcome-actions .card')) return;
    window.__welcomeAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true });
})();`;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function welcomeLoads(page: Page, siteUrl: string, loads: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < loads; i++) {
    await page.goto('about:blank');
    await page.goto(`${siteUrl}#/`);
    await page.waitForFunction(() => (window as unknown as { __welcomeAt?: number }).__welcomeAt !== undefined, undefined, { timeout: 30_000 });
    out.push(await page.evaluate(() => (window as unknown as { __welcomeAt: number }).__welcomeAt));
  }
  return out;
}

/**
 * Opens the object view and returns ms from the object GET's responseEnd to the ownership view of
 * all `lines` on screen (long objects are windowed: the lines in view are in the DOM).
 */
async function ownershipRender(page: Page, siteUrl: string, hash: string, lines: number): Promise<number> {
  await page.goto('about:blank');
  await page.goto(`${siteUrl}${hash}`);
  await page.waitForFunction(() => (window as unknown as { __linesAt?: number }).__linesAt !== undefined, undefined, { timeout: 60_000 });
  return page.evaluate(() => {
    const rendered = (window as unknown as { __linesAt?: number }).__linesAt ?? performance.now();
    const gets = performance.getEntriesByType('resource').filter((e) => /\/configmaps\/big(\?|$)/.test(e.name)) as PerformanceResourceTiming[];
    return rendered - Math.min(...gets.map((g) => g.responseEnd));
  });
}

export async function measureTeaching(browser: Browser, siteUrl: string): Promise<TeachingReport> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript(MARK_WELCOME);
  // Notes when the owned-lines list first reaches its full length.
  await context.addInitScript(`(() => {
    const observer = new MutationObserver(() => {
      const list = document.querySelector('.owned-lines');
      const full = list && Number(list.getAttribute('data-lines')) >= window.__wantLines && list.querySelectorAll('li:not(.spacer)').length >= 20;
      if (full && window.__linesAt === undefined) window.__linesAt = performance.now();
    });
    window.__wantLines = 2000;
    observer.observe(document, { subtree: true, childList: true });
  })();`);
  const page = await context.newPage();
  await openApp(context, siteUrl, page);
  await welcomeLoads(page, siteUrl, 1);
  const welcomeWarmMs = await welcomeLoads(page, siteUrl, 7);

  // A ConfigMap of about 2,000 lines, its keys owned by four managers.
  const data = (from: number) => Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key-${String(from + i).padStart(4, '0')}`, `value ${from + i}`]));
  for (const [i, manager] of ['alice', 'bob', 'carol', 'dave'].entries()) {
    const r = await pageFetch(page, `api/v1/namespaces/default/configmaps/big?fieldManager=${manager}`, { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: data(i * 500) }) });
    if (r.status >= 300) throw new Error(`seeding big: ${r.status} ${r.body.slice(0, 200)}`);
  }
  const hash = '#/api/v1/namespaces/default/configmaps/big';
  await ownershipRender(page, siteUrl, hash, 2000);
  const ownershipRenderMs: number[] = [];
  for (let i = 0; i < 5; i++) ownershipRenderMs.push(await ownershipRender(page, siteUrl, hash, 2000));
  const ownershipLines = Number(await page.locator('.owned-lines').getAttribute('data-lines'));

  // 1,000 revisions of one small object by three managers, then scrub through them.
  const revisions = 1000;
  await pageFetch(page, 'api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'scrub' }, data: { n: '0' } }) });
  await page.evaluate(async (n) => {
    const managers = ['alice', 'bob', 'carol'];
    for (let i = 1; i < n; i++) {
      const r = await fetch(new URL(`api/v1/namespaces/default/configmaps/scrub?fieldManager=${managers[i % 3]}`, document.baseURI), { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { n: String(i), [managers[i % 3]!]: String(i) } }) });
      if (r.status !== 200) throw new Error(`patch ${i}: ${r.status}`);
    }
  }, revisions);
  await page.goto(`${siteUrl}#/api/v1/namespaces/default/configmaps/scrub`);
  await page.getByRole('button', { name: 'History' }).click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="timeline-entry"]').length >= n, Math.min(revisions, 200), { timeout: 60_000 });
  const timelineRevisions = await page.getByTestId('timeline-entry').count();
  const frames = await page.evaluate(async (steps) => {
    const slider = document.querySelector<HTMLInputElement>('input[aria-label="Revision"]')!;
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    const times: number[] = [];
    let last = performance.now();
    for (let i = 0; i < steps; i++) {
      await new Promise<void>((resolve) =>
        requestAnimationFrame(() => {
          const now = performance.now();
          times.push(now - last);
          last = now;
          setValue.call(slider, String(Math.max(1, Number(slider.max) - i)));
          slider.dispatchEvent(new Event('input', { bubbles: true }));
          resolve();
        }),
      );
    }
    return times.slice(1);
  }, 240);
  await context.close();
  return {
    welcomeWarmMs,
    welcomeWarmP50Ms: pct(welcomeWarmMs, 0.5),
    ownershipLines,
    ownershipRenderMs,
    ownershipRenderP50Ms: pct(ownershipRenderMs, 0.5),
    timelineRevisions,
    scrubFrames: frames.length,
    scrubFrameP50Ms: pct(frames, 0.5),
    scrubFrameP95Ms: pct(frames, 0.95),
  };
}
