// Storage failing under a running browser host: the worker's IndexedDB connection is taken away
// (a tab of a newer deployment upgrades the database, and the worker steps aside as it must). A
// write then gets a 500 Status and nothing half-written, the page says so within one poll and
// offers to go on in memory with every object and resourceVersion kept; a reset goes back to a
// fresh persistent database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { UI_SHOTS, buildAndServe, json, launchBrowser, openApp, pageFetch, type Site } from './harness';

const CM = 'api/v1/namespaces/default/configmaps';
const create = (name: string) => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { a: name } }) });
let site: Site;
let browser: Browser;

beforeAll(async () => {
  site = await buildAndServe('/');
  browser = await launchBrowser();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('browser host when IndexedDB fails mid-session', () => {
  it('answers 500, shows the problem, continues in memory with objects kept, and a reset returns to IndexedDB', async () => {
    const context = await browser.newContext();
    const { page, status } = await openApp(context, site.url);
    expect(status.mode).toBe('persistent');
    const kept = await pageFetch(page, CM, create('kept'));
    expect(kept.status).toBe(201);
    const keptRv = json(kept).metadata.resourceVersion;

    // Open the cluster's database at a newer version: the worker closes its connection on versionchange.
    const upgraded = await page.evaluate(
      (name) =>
        new Promise<number>((resolve, reject) => {
          const req = indexedDB.open(name, 1000);
          req.onsuccess = () => {
            const version = req.result.version;
            req.result.close();
            resolve(version);
          };
          req.onerror = () => reject(req.error);
        }),
      'kube-playground',
    );
    expect(upgraded).toBe(1000);

    const refused = await pageFetch(page, CM, create('refused'));
    expect(refused.status).toBe(500);
    expect(JSON.parse(refused.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
    expect(JSON.parse(refused.body).message).toMatch(/^Internal error occurred: .*indexeddb commit failed: InvalidStateError/);
    expect((await pageFetch(page, `${CM}/refused`)).status).toBe(404);

    // The bar learns of it from its poll, and offers the in-memory fallback.
    const problem = page.getByTestId('storage-error');
    await problem.getByRole('button', { name: 'Continue in memory (not persistent)' }).waitFor({ timeout: 10_000 });
    expect(await problem.textContent()).toContain('Storage problem: indexeddb commit failed: InvalidStateError');
    await page.screenshot({ path: join(UI_SHOTS, 'storage-failure-offer.png') });
    await problem.getByRole('button', { name: 'Continue in memory (not persistent)' }).click();
    await page.getByTestId('mode').getByText('in memory — not persistent').waitFor();
    expect(await problem.textContent()).toMatch(/running in memory after a storage failure \(.*InvalidStateError.*\): changes are not persistent/);
    expect(await problem.getByRole('button').count()).toBe(0);
    await page.screenshot({ path: join(UI_SHOTS, 'storage-failure-in-memory.png') });

    // Same object, same resourceVersion; writes work again and go on from the same revision.
    const got = await pageFetch(page, `${CM}/kept`);
    expect(got.status).toBe(200);
    expect(json(got).metadata.resourceVersion).toBe(keptRv);
    const next = await pageFetch(page, CM, create('in-memory'));
    expect(next.status).toBe(201);
    expect(Number(json(next).metadata.resourceVersion)).toBeGreaterThan(Number(keptRv));

    // Reset drops the database and starts a persistent, empty cluster.
    await page.getByRole('button', { name: 'Reset cluster' }).click();
    await page.getByRole('alertdialog', { name: 'Reset the cluster?' }).getByRole('button', { name: 'Delete everything' }).click();
    await page.getByTestId('mode').getByText('persistent (IndexedDB)').waitFor();
    expect(await problem.count()).toBe(0);
    expect((await pageFetch(page, `${CM}/kept`)).status).toBe(404);
    expect((await pageFetch(page, CM, create('after-reset'))).status).toBe(201);
    await context.close();
  });
});
