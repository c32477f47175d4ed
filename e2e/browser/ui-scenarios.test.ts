// Shareable scenarios through the page: "Share this cluster as a link" builds a `#/scenario/…`
// link from the cluster's own objects; opening it in a fresh browser profile (a new browser
// context: its own Service Worker and IndexedDB) asks first, then brings back the same objects
// with the same managedFields, and opens the lesson the link names. Screenshots of both dialogs
// at 1440×900 and 1024×768, light and dark, go to test-results/ui-screenshots/.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, screenshotViews, useUiSession, pageFetch, type UiSession } from './harness';

let session: UiSession;
let page: Page;
useUiSession((s) => {
  session = s;
  page = s.page;
});

const send = (p: Page, method: string, path: string, body: unknown, contentType = 'application/json') =>
  pageFetch(p, path, { method, headers: { 'Content-Type': contentType }, body: JSON.stringify(body) });

const shots = (p: Page, name: string) => screenshotViews(p, name);

/** An object as read from the API, without the resourceVersion a new history renumbers. */
async function readObject(p: Page, path: string): Promise<{ status: number; object?: Record<string, unknown> }> {
  const res = await pageFetch(p, path);
  if (res.status !== 200) return { status: res.status };
  const object = JSON.parse(res.body) as { metadata: Record<string, unknown> };
  delete object.metadata.resourceVersion;
  return { status: 200, object };
}

async function shareLink(p: Page, withLesson?: boolean): Promise<string> {
  await p.getByRole('button', { name: 'Share this cluster as a link' }).click();
  const dialog = p.getByRole('dialog', { name: 'Share this cluster as a link' });
  await dialog.waitFor();
  if (withLesson !== undefined) {
    const box = dialog.getByRole('checkbox', { name: /Open the lesson/ });
    if ((await box.isChecked()) !== withLesson) await box.click();
  }
  const field = dialog.getByTestId('scenario-link');
  await field.waitFor();
  await expect.poll(async () => (await field.inputValue()).includes('#/scenario/')).toBe(true);
  return field.inputValue();
}

describe('scenario links', () => {
  const paths = ['api/v1/namespaces/team', 'api/v1/namespaces/team/configmaps/shared', 'apis/apps/v1/namespaces/team/deployments/web', 'api/v1/namespaces/team/serviceaccounts/robot'];

  it('a shared link opens the same objects, owners included, in a fresh browser profile', async () => {
    expect((await send(page, 'POST', 'api/v1/namespaces', { metadata: { name: 'team' } })).status).toBe(201);
    const cm = 'api/v1/namespaces/team/configmaps/shared';
    const apply = (manager: string, data: Record<string, string>) =>
      send(page, 'PATCH', `${cm}?fieldManager=${manager}&force=true`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data }, 'application/apply-patch+yaml');
    expect((await apply('alice', { a: '1' })).status).toBe(201);
    expect((await apply('bob', { b: '2' })).status).toBe(200);
    expect((await send(page, 'PATCH', `${cm}?fieldManager=carol`, { data: { c: '3' } }, 'application/merge-patch+json')).status).toBe(200);
    const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } };
    expect((await send(page, 'PATCH', 'apis/apps/v1/namespaces/team/deployments/web?fieldManager=alice', deployment, 'application/apply-patch+yaml')).status).toBe(201);
    expect((await send(page, 'POST', 'api/v1/namespaces/team/serviceaccounts', { metadata: { name: 'robot' } })).status).toBe(201);
    const originals = await Promise.all(paths.map((p) => readObject(page, p)));
    for (const o of originals) expect(o.status).toBe(200);

    const link = await shareLink(page);
    expect(link.startsWith(`${session.site.url}#/scenario/`)).toBe(true);
    const dialog = page.getByRole('dialog', { name: 'Share this cluster as a link' });
    // Only the learner's objects: the fresh cluster's own (namespaces, token Secrets, APF...) stay out.
    expect(await dialog.innerText()).toContain('4 objects (ConfigMap × 1, Namespace × 1, ServiceAccount × 1, Deployment × 1)');
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await dialog.getByRole('status').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await shots(page, 'scenario-share');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    // A fresh profile: nothing of the first context's cluster is there until the link is opened.
    const fresh = await session.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const { page: other } = await openApp(fresh, link);
      const ask = other.getByRole('dialog', { name: 'Open a shared scenario?' });
      await ask.waitFor();
      expect(await ask.innerText()).toContain('This link holds 4 objects');
      expect((await pageFetch(other, paths[1]!)).status).toBe(404);
      await shots(other, 'scenario-open');
      await ask.getByRole('button', { name: 'Reset and open the scenario' }).click();
      await ask.waitFor({ state: 'detached' });
      // The fragment is left for the home view, without a history entry to come back to it.
      await expect.poll(() => other.evaluate(() => location.hash)).toBe('#/');
      const restored = await Promise.all(paths.map((p) => readObject(other, p)));
      expect(restored.slice(0, 2)).toEqual(originals.slice(0, 2));
      // The Deployment as the learner wrote it; its status (and the controller's entry for it)
      // goes on changing in a living cluster, whose deployment controller resumes after the import.
      const asWritten = (o: { object?: Record<string, unknown> }) => {
        const { status: _status, metadata, ...rest } = o.object as { status?: unknown; metadata: { managedFields: Array<{ subresource?: string }> } & Record<string, unknown> };
        const { resourceVersion: _rv, generation: _g, annotations: _a, ...meta } = metadata;
        return { ...rest, metadata: { ...meta, managedFields: metadata.managedFields.filter((e) => e.subresource !== 'status') } };
      };
      expect(asWritten(restored[2]!)).toEqual(asWritten(originals[2]!));
      // The ServiceAccount comes back with its uid; its token Secret stayed out of the link (a
      // credential of the other cluster), so the new cluster's token controller adds one of its
      // own to it, as kube's does for an account whose token is missing.
      const uid = (o: { object?: Record<string, unknown> }) => (o.object?.metadata as { uid: string }).uid;
      expect(uid(restored[3]!)).toBe(uid(originals[3]!));
      const managers = (restored[1]!.object!.metadata as { managedFields: Array<{ manager: string; operation: string }> }).managedFields.map((m) => `${m.manager}:${m.operation}`);
      expect(managers).toEqual(['alice:Apply', 'bob:Apply', 'carol:Update']);
      // The object view shows the restored owners.
      await other.evaluate(() => (location.hash = '#/api/v1/namespaces/team/configmaps/shared'));
      await expect.poll(() => other.getByRole('list', { name: 'Field managers' }).innerText()).toContain('carol');
    } finally {
      await fresh.close();
    }
  });

  it('a link made on a lesson opens that lesson; declining keeps the cluster; a damaged link says why', async () => {
    await page.evaluate(() => (location.hash = '#/learn/conflict/2'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    const link = await shareLink(page, true);
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

    const fresh = await session.browser.newContext({ viewport: { width: 1280, height: 720 } });
    try {
      const { page: other } = await openApp(fresh, `${session.site.url}#/`);
      expect((await send(other, 'POST', 'api/v1/namespaces/default/configmaps', { metadata: { name: 'mine' } })).status).toBe(201);
      // Pasted into a tab that is already open: a hash change.
      await other.evaluate((l) => (location.href = l), link);
      const ask = other.getByRole('dialog', { name: 'Open a shared scenario?' });
      await ask.waitFor();
      expect(await ask.innerText()).toContain('It then opens the lesson conflict');
      await ask.getByRole('button', { name: 'Keep my cluster' }).click();
      await ask.waitFor({ state: 'detached' });
      expect(await other.evaluate(() => location.hash)).toBe('#/');
      expect((await pageFetch(other, 'api/v1/namespaces/default/configmaps/mine')).status).toBe(200);

      await other.evaluate((l) => (location.href = l), link);
      await ask.waitFor();
      await ask.getByRole('button', { name: 'Reset and open the scenario' }).click();
      await expect.poll(() => other.evaluate(() => location.hash)).toBe('#/learn/conflict/1');
      await other.getByRole('heading', { level: 1 }).waitFor();
      expect((await pageFetch(other, 'api/v1/namespaces/default/configmaps/mine')).status).toBe(404);
      expect((await readObject(other, paths[1]!)).status).toBe(200);

      await other.evaluate((l) => (location.href = l.slice(0, -40)), link);
      const broken = other.getByRole('dialog', { name: 'This scenario link cannot be opened' });
      await broken.waitFor();
      expect(await broken.innerText()).toMatch(/damaged/);
      await broken.getByRole('button', { name: 'Close' }).click();
      expect((await readObject(other, paths[1]!)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});
