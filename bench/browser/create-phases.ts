// Where a sequential create's time goes, against T (the same POST answered with fixed bytes) and
// TP (T plus P's raw put, in one request): p50s and means of the page's whole fetch and its legs. The
// worker's clock marks are taken by wrapping the platform functions the worker calls (the body
// read, the readwrite transaction and its `complete`, the Response constructor), so no product
// code changes; page and worker are cross-origin isolated, so both clocks tick in 5 µs and share
// an epoch through performance.timeOrigin.
//   npx tsx bench/browser/create-phases.ts [--blank]   (--blank: from a page without the app)
import { buildAndServe, launchBrowser, openApp } from '../../e2e/browser/harness';
import { CONFIGMAP } from '../fixtures';
import { quantile } from '../http-client';

/** Installed in the worker: one record of marks per request body read. */
const WORKER_MARKS = `(() => {
  const marks = (self.__createPhases = []);
  let current;
  const now = () => performance.timeOrigin + performance.now();
  const arrayBuffer = Request.prototype.arrayBuffer;
  Request.prototype.arrayBuffer = function () {
    const m = (current = { start: now() });
    marks.push(m);
    return arrayBuffer.call(this).then((b) => ((m.body = now()), b));
  };
  const transaction = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (stores, mode, opts) {
    const tx = transaction.call(this, stores, mode, opts);
    const m = current;
    if (m && mode === 'readwrite') {
      m.commit = now();
      tx.addEventListener('complete', () => (m.committed = now()));
    }
    return tx;
  };
  const Native = self.Response;
  self.Response = function (body, init) {
    if (current) current.answer = now();
    return new Native(body, init);
  };
  self.Response.prototype = Native.prototype;
  Object.setPrototypeOf(self.Response, Native);
})()`;

const URLS: Record<string, string> = {
  create: `'api/v1/namespaces/default/configmaps'`,
  T: `'__playground/bench/echo?status=201&bytes=620'`,
  TP: `'__playground/bench/echo-put?status=201&bytes=620&key=k' + (i % 50)`,
};

interface PageTimes {
  sent: number;
  headers: number;
  done: number;
}

async function main(): Promise<void> {
  const site = await buildAndServe('/', { isolated: true, bench: true });
  const browser = await launchBrowser();
  const context = await browser.newContext();
  const app = await openApp(context, site.url);
  let page = app.page;
  if (process.argv.includes('--blank')) {
    // A page of the site without the app: no UI lists or watches on the same threads.
    page = await context.newPage();
    await page.goto(`${site.url}no-such-page`);
    await app.page.close();
  }
  const worker = context.serviceWorkers()[0]!;
  await worker.evaluate(WORKER_MARKS);
  const run = (kind: string, n: number, prefix: string) =>
    page.evaluate(`(async () => {
      const cm = ${CONFIGMAP.toString()};
      const now = () => performance.timeOrigin + performance.now();
      const times = [];
      for (let i = 0; i < ${n}; i++) {
        const sent = now();
        const res = await fetch(${URLS[kind]}, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: cm('${prefix}-' + i) });
        const headers = now();
        await res.text();
        times.push({ sent, headers, done: now() });
      }
      return times;
    })()`) as Promise<PageTimes[]>;

  await run('create', 3000, 'warm');
  for (const kind of ['T', 'TP']) await run(kind, 300, `warm-${kind}`);
  const legs: Record<string, Record<string, number[]>> = {};
  for (let block = 0; block < 30; block++) {
    for (const kind of Object.keys(URLS)) {
      await worker.evaluate('self.__createPhases.length = 0');
      const page = await run(kind, 20, `${kind}-${block}`);
      const marks = (await worker.evaluate('self.__createPhases')) as Array<Record<string, number>>;
      const out = (legs[kind] ??= {});
      page.forEach((p, i) => {
        const m = marks[i]!;
        const add = (name: string, ms: number) => (out[name] ??= []).push(ms);
        add('whole fetch', p.done - p.sent);
        add('page → worker', m.start! - p.sent);
        add('in the worker', m.answer! - m.start!);
        if (m.commit !== undefined) {
          add('of it: to the commit', m.commit - m.start!);
          add('of it: commit', m.committed! - m.commit);
          add('of it: after the commit', m.answer! - m.committed!);
        }
        add('worker → page (headers)', p.headers - m.answer!);
        add('body read', p.done - p.headers);
      });
    }
  }
  await browser.close();
  await site.close();
  const names = ['whole fetch', 'page → worker', 'in the worker', 'of it: to the commit', 'of it: commit', 'of it: after the commit', 'worker → page (headers)', 'body read'];
  // Means as well: they add up to the whole (p50s do not: a leg's slow tail lands on other requests).
  const describe = (xs: number[] | undefined) => (xs ? `${quantile(xs, 0.5).toFixed(3)} / ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(3)}` : '—');
  console.table(names.map((name) => Object.fromEntries([['ms, p50 / mean', name], ...Object.keys(URLS).map((k) => [k, describe(legs[k]![name])])])));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
