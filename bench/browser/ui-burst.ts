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
  /** Of those, frames where the list's scroll box changed size (e.g. its scrollbar appeared) between the commits. */
  framesWithMoreThanOneCommitWhileResizing: number;
  /** How long those frames lasted (ms): a frame far longer than usual means the machine stalled the page. */
  multiCommitFrameMs: number[];
  /** Time between the first and last commit of each of those frames (≈0: one task re-rendered twice). */
  multiCommitGapsMs: number[];
  burstFrameP50Ms: number;
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

// Frames are bounded by when each frame's animation-frame callbacks start running, not by the
// timestamp they are given: that is the frame's nominal begin time, which on a busy main thread can
// come before the previous frame's callbacks (and the commit they cause) have finished, so a
// frame's own commit would be counted in the next frame. Every rAF callback is wrapped so the first
// one of each frame records the start.
const COUNT_COMMITS = `(() => {
  window.__commitTimes = [];
  window.__frameTimes = [];
  const raf = window.requestAnimationFrame.bind(window);
  let lastFrame;
  window.requestAnimationFrame = (cb) => raf((t) => {
    if (t !== lastFrame) {
      lastFrame = t;
      if (window.__sampling) window.__frameTimes.push(performance.now());
    }
    cb(t);
  });
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, isDisabled: false, renderers: new Map(),
    inject() { return 1; },
    onCommitFiberRoot() { if (window.__sampling) window.__commitTimes.push([performance.now(), (() => { const b = document.querySelector('.table-scroll'); return b ? b.clientWidth + 'x' + b.clientHeight : ''; })()]); },
    onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, setStrictMode() {}, checkDCE() {},
  };
})();`;

const LIST = '#/api/v1/namespaces/default/configmaps';

/** [commits, DOM update batches] in each frame: between one frame's start and the next's. */
function perFrame(frameTimes: number[], commitTimes: number[], domTimes: number[]): Array<[number, number]> {
  const count = (times: number[], from: number, to: number) => times.filter((t) => t >= from && t < to).length;
  return frameTimes.slice(0, -1).map((start, i) => [count(commitTimes, start, frameTimes[i + 1]!), count(domTimes, start, frameTimes[i + 1]!)]);
}

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
  // Frame start times (recorded by the wrapped requestAnimationFrame; the tick keeps frames
  // coming), commit times and DOM update batch times; each commit is then counted in its frame.
  await page.evaluate(`(() => {
    window.__frameTimes = [];
    window.__commitTimes = [];
    window.__domTimes = [];
    window.__sampling = true;
    const observer = new MutationObserver(() => window.__domTimes.push(performance.now()));
    observer.observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true, attributes: true });
    const tick = () => {
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
  const sampled = (await page.evaluate('window.__sampling = false, { frameTimes: window.__frameTimes, commitTimes: window.__commitTimes, domTimes: window.__domTimes }')) as { frameTimes: number[]; commitTimes: Array<[number, string]>; domTimes: number[] };
  const frames = perFrame(sampled.frameTimes, sampled.commitTimes.map((c) => c[0]), sampled.domTimes);
  // Frames with more than one commit in which the list's scroll box changed size (its ResizeObserver re-renders).
  const resizeFrames = sampled.frameTimes.slice(0, -1).filter((start, i) => {
    const inFrame = sampled.commitTimes.filter(([t]) => t >= start && t < sampled.frameTimes[i + 1]!);
    return inFrame.length > 1 && new Set(inFrame.map((c) => c[1])).size > 1;
  }).length;

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
    framesWithMoreThanOneCommitWhileResizing: resizeFrames,
    multiCommitGapsMs: sampled.frameTimes.slice(0, -1).flatMap((start, i) => {
      const inFrame = sampled.commitTimes.map(([t]) => t).filter((t) => t >= start && t < sampled.frameTimes[i + 1]!);
      return inFrame.length > 1 ? [Math.round((inFrame[inFrame.length - 1]! - inFrame[0]!) * 10) / 10] : [];
    }),
    multiCommitFrameMs: sampled.frameTimes.slice(0, -1).map((start, i) => sampled.frameTimes[i + 1]! - start).filter((_, i) => frames[i]![0] > 1).map(Math.round),
    burstFrameP50Ms: pct(sampled.frameTimes.slice(1).map((t, i) => t - sampled.frameTimes[i]!).sort((a, b) => a - b), 0.5),
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
