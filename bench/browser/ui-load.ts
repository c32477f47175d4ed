// Page load to interactive with a warm cache. "Interactive" here means: the resource tree is
// rendered from discovery (its first kind link exists) and the first list's Table is rendered (a
// data row of the ConfigMaps list the deep link opens). Warm = the Service Worker is installed and
// controls the page, and its precache and the HTTP cache hold the assets (every load after the
// first). Times are from navigation start, read in the page.
import type { Browser } from 'playwright-core';
import { openApp, pageFetch } from '../../e2e/browser/harness';

export interface LoadReport {
  /** The list view's first load, right after the worker was installed and the objects made. */
  firstMs: number;
  warmMs: number[];
  warmP50Ms: number;
  /** Every URL path the page requested up to that first list view, for the initial-JS measurement. */
  requests: string[];
}

/** Installed before any page script: notes the time both parts of the first view are on screen. */
const MARK_INTERACTIVE = `(() => {
  const done = () => document.querySelector('nav[aria-label="Resources"] li a') && document.querySelector('.table-scroll tbody tr[aria-rowindex]');
  const observer = new MutationObserver(() => {
    if (!done()) return;
    window.__interactiveAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true });
})();`;

export const FIRST_VIEW = '#/api/v1/namespaces/default/configmaps';

export async function measureWarmLoad(browser: Browser, siteUrl: string, loads = 9): Promise<LoadReport> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.addInitScript(MARK_INTERACTIVE);
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await openApp(context, siteUrl, page);
  // Something to show in the first list.
  for (let i = 0; i < 20; i++) {
    const r = await pageFetch(page, 'api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: `load-${i}` }, data: { k: 'v' } }) });
    if (r.status !== 201) throw new Error(`seeding ConfigMaps: ${r.status} ${r.body}`);
  }
  const interactiveAt = async () => {
    await page.waitForFunction(() => (window as unknown as { __interactiveAt?: number }).__interactiveAt !== undefined, undefined, { timeout: 30_000 });
    return page.evaluate(() => (window as unknown as { __interactiveAt: number }).__interactiveAt);
  };
  await page.goto(siteUrl + FIRST_VIEW);
  const firstMs = await interactiveAt();
  page.removeAllListeners('request');
  const warmMs: number[] = [];
  for (let i = 0; i < loads; i++) {
    await page.goto('about:blank');
    await page.goto(siteUrl + FIRST_VIEW);
    warmMs.push(await interactiveAt());
  }
  await context.close();
  const sorted = [...warmMs].sort((a, b) => a - b);
  return { firstMs, warmMs, warmP50Ms: sorted[Math.floor(sorted.length / 2)]!, requests };
}
