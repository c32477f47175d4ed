// A burst of 1,000 watch events against the list being shown, and scrolling the resulting
// 1,000-row list. React commits are counted through the devtools hook React calls on every commit
// (a stand-in hook installed before the page loads), DOM update batches with a MutationObserver on
// <main>; both are bucketed per animation frame by a requestAnimationFrame loop. Then the table is
// scrolled a fixed distance every frame while the frame times and the rendered row count are read.
import type { Browser } from 'playwright-core';
import { openApp } from '../../e2e/browser/harness';

export interface BurstReport {
  events: number;
  burstMs: number;
  frames: number;
  totalCommits: number;
  maxCommitsPerFrame: number;
  framesWithMoreThanOneCommit: number;
  maxDomBatchesPerFrame: number;
  rows: number;
  maxRowElements: number;
  scrollFrames: number;
  scrollFrameP50Ms: number;
  scrollFrameP95Ms: number;
  scrollFrameMaxMs: number;
  /** The same page's frame times when idle, measured just before: the floor on this machine now. */
  idleFrameP50Ms: number;
  idleFrameP95Ms: number;
}

const COUNT_COMMITS = `(() => {
  window.__commits = 0;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject() { return 1; },
    onCommitFiberRoot() { window.__commits++; },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, setStrictMode() {}, checkDCE() {},
  };
})();`;

const LIST = '#/api/v1/namespaces/default/configmaps';

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export async function measureBurst(browser: Browser, siteUrl: string, events = 1000): Promise<BurstReport> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(COUNT_COMMITS);
  const { page } = await openApp(context, siteUrl + LIST);
  await page.locator('.table-view select').first().selectOption('1000');
  await page.locator('[data-testid="row-count"]').waitFor();
  // Let the page settle before sampling (first renders, the watch's initial list).
  await page.waitForTimeout(1000);
  // (Page code goes as text: tsx's helper names, such as __name, do not exist inside the page.)
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__sampling = true;
    let seen = window.__commits;
    let batches = 0;
    const observer = new MutationObserver(() => batches++);
    observer.observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true, attributes: true });
    const tick = () => {
      window.__frames.push([window.__commits - seen, batches]);
      seen = window.__commits;
      batches = 0;
      if (window.__sampling) requestAnimationFrame(tick);
      else observer.disconnect();
    };
    requestAnimationFrame(tick);
  })()`);

  // The writes come from another tab of the same origin (same Service Worker and store), 16 at a
  // time, so this page only receives the events.
  const writer = await context.newPage();
  await openApp(context, siteUrl, writer);
  // A tab in the background gets one animation frame a second; the list's tab must be in front.
  await page.bringToFront();
  const t0 = Date.now();
  await writer.evaluate(`(async () => {
    let next = 0;
    const one = async (i) => {
      const r = await fetch('api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'burst-' + String(i).padStart(4, '0') }, data: { a: 'x'.repeat(100) } }) });
      if (r.status !== 201) throw new Error('create: ' + r.status);
    };
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < ${events}) await one(next++);
    }));
  })()`);
  await page.waitForFunction((n) => document.querySelector('[data-testid="row-count"]')?.textContent === String(n), events, { timeout: 60_000 });
  const burstMs = Date.now() - t0;
  await page.waitForTimeout(500);
  const frames = (await page.evaluate('window.__sampling = false, window.__frames')) as Array<[number, number]>;

  // The floor: frame times of the same page doing nothing, just before scrolling (the machine may be busy).
  const idle = (await page.evaluate(`new Promise((done) => {
    const times = [];
    let last = performance.now();
    const step = (t) => {
      times.push(t - last);
      last = t;
      if (times.length > 120) done(times.slice(1));
      else requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  })`)) as number[];
  const scroll = (await page.evaluate(`(async () => {
    const box = document.querySelector('.table-scroll');
    const rowsNow = () => box.querySelectorAll('tbody tr').length;
    const times = [];
    let maxRows = rowsNow();
    await new Promise((done) => {
      let last = performance.now();
      const step = (t) => {
        times.push(t - last);
        last = t;
        maxRows = Math.max(maxRows, rowsNow());
        if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) return done();
        box.scrollTop += 150;
        requestAnimationFrame(step);
      };
      requestAnimationFrame(step);
    });
    return { times: times.slice(1), maxRows };
  })()`)) as { times: number[]; maxRows: number };
  await context.close();

  const sortedScroll = [...scroll.times].sort((a, b) => a - b);
  const sortedIdle = [...idle].sort((a, b) => a - b);
  return {
    events,
    burstMs,
    frames: frames.length,
    totalCommits: frames.reduce((n, f) => n + f[0], 0),
    maxCommitsPerFrame: Math.max(0, ...frames.map((f) => f[0])),
    framesWithMoreThanOneCommit: frames.filter((f) => f[0] > 1).length,
    maxDomBatchesPerFrame: Math.max(0, ...frames.map((f) => f[1])),
    rows: events,
    maxRowElements: scroll.maxRows,
    scrollFrames: scroll.times.length,
    scrollFrameP50Ms: pct(sortedScroll, 0.5),
    scrollFrameP95Ms: pct(sortedScroll, 0.95),
    scrollFrameMaxMs: sortedScroll[sortedScroll.length - 1] ?? 0,
    idleFrameP50Ms: pct(sortedIdle, 0.5),
    idleFrameP95Ms: pct(sortedIdle, 0.95),
  };
}
