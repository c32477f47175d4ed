// Chromium's IndexedDB gets dearer per write once a few MB have been written to it, with no API
// in the way: raw puts shaped like the API's 16-in-flight creates under layout 2 (transactions
// of 3 puts of 620 bytes plus one small history put; layout 3 leaves that put out, decision
// 0014, which cut much of this cost) timed in a fresh profile, then again after one kind of
// earlier writing. On 2026-11-26 (Chromium 150) the browser process's CPU per put went from
// ~0.2 ms to ~0.55-0.65 ms after 10,000 puts of 620 bytes (in one transaction or in 3,334) and
// stayed there; 4,000 transactions that wrote no new data left it alone. The 16-in-flight row's
// floor T has no IndexedDB in it, so this part of a create's cost shows there in full.
//   npx tsx bench/browser/idb-wear.ts
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/browser/harness';
import { chromiumCpu, cpuSince } from './process-cpu';

/** Earlier writing, by kind. */
const WEAR: Record<string, string> = {
  'nothing (measured twice)': '',
  '4,000 transactions of one 8-byte overwrite (no data growth)': 'window.wear.small(4000)',
  'one transaction of 10,000 puts of 620 bytes': 'window.wear.big(10000)',
  '10,000 puts of 620 bytes in transactions of 3': 'window.wear.creates(10000, "fill")',
};
const MEASURED_PUTS = 900;

// Page code as text: the bundler's helper names do not exist inside the page.
const SETUP = `(async () => {
  const db = await new Promise((resolve, reject) => {
    const q = indexedDB.open('wear', 1);
    q.onupgradeneeded = () => { for (const s of ['objects', 'history', 'scratch']) q.result.createObjectStore(s); };
    q.onsuccess = () => resolve(q.result);
    q.onerror = () => reject(q.error);
  });
  const value = { v: 'x'.repeat(620), c: 1, m: 1 };
  const txn = (stores, fill) => new Promise((resolve, reject) => {
    const tx = db.transaction(stores, 'readwrite', { durability: 'relaxed' });
    tx.oncomplete = resolve;
    tx.onabort = () => reject(tx.error);
    fill(tx);
    tx.commit();
  });
  let rev = 0;
  window.wear = {
    creates: async (n, prefix) => {
      for (let i = 0; i < n; i += 3) await txn(['objects', 'history'], (tx) => {
        for (let j = i; j < i + 3; j++) tx.objectStore('objects').put(value, prefix + '-' + j);
        tx.objectStore('history').put([{ type: 'put', rev: ++rev }], rev);
      });
    },
    small: async (n) => { for (let i = 0; i < n; i++) await txn(['scratch'], (tx) => tx.objectStore('scratch').put(i, 'k')); },
    big: (n) => txn(['objects'], (tx) => { for (let i = 0; i < n; i++) tx.objectStore('objects').put(value, 'big-' + i); }),
  };
})()`;

async function measure(page: Page, prefix: string): Promise<{ msPerTransaction: number; browserMsPerPut: number }> {
  const before = chromiumCpu();
  const t0 = performance.now();
  await page.evaluate(`window.wear.creates(${MEASURED_PUTS}, '${prefix}')`);
  const ms = performance.now() - t0;
  const after = chromiumCpu();
  const browserMs = before && after ? (cpuSince(before, after).get('browser') ?? 0) : NaN;
  return { msPerTransaction: ms / (MEASURED_PUTS / 3), browserMsPerPut: browserMs / MEASURED_PUTS };
}

async function main(): Promise<void> {
  const rows = [];
  for (const [label, wear] of Object.entries(WEAR)) {
    // A fresh profile each time: the earlier writing is the only difference.
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.route('**/*', (route) => route.fulfill({ body: '<!doctype html><title>idb</title>', contentType: 'text/html' }));
    await page.goto('http://idb-wear.test/');
    await page.evaluate(SETUP);
    const fresh = await measure(page, 'fresh');
    if (wear) await page.evaluate(wear);
    const after = await measure(page, 'after');
    await browser.close();
    const f = (n: number) => n.toFixed(2);
    rows.push({ 'earlier writing': label, 'fresh ms/txn': f(fresh.msPerTransaction), 'fresh browser CPU ms/put': f(fresh.browserMsPerPut), 'after ms/txn': f(after.msPerTransaction), 'after browser CPU ms/put': f(after.browserMsPerPut) });
  }
  console.table(rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
