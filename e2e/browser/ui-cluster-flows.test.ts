// Flows where the cluster behind the page changes under the open views: every list page follows
// its watch (a continue token alone would keep showing the old snapshot), and Reset / Import make
// every open view read the cluster again; an import brings objects back exactly, with their
// owners, and says what it did in a dialog.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useUiSession, pageFetch, UI_SHOTS } from './harness';

let page: Page;
useUiSession((s) => (page = s.page));

const go = (p: Page, hash: string) => p.evaluate((h) => (location.hash = h), hash);
const send = (p: Page, method: string, path: string, body: unknown, contentType = 'application/json') =>
  pageFetch(p, path, { method, headers: { 'Content-Type': contentType }, body: JSON.stringify(body) });
const rowNames = (p: Page) => p.locator('.table-scroll tbody a').allInnerTexts();

/** The export's documents for the named objects, without the resourceVersion a new history renumbers. */
function userObjects(yaml: string, names: string[]): string[] {
  const wanted = new RegExp(`^  name: (${names.join('|')})$`, 'm');
  return yaml
    .split(/^---\n/m)
    .filter((d) => wanted.test(d))
    .map((d) => d.replace(/^  resourceVersion: .*\n/m, ''));
}

describe('views that follow the cluster', () => {
  it('a list page after the first follows its watch', async () => {
    expect((await send(page, 'POST', 'api/v1/namespaces', { metadata: { name: 'pages' } })).status).toBe(201);
    for (let i = 0; i < 12; i++) {
      const name = `cm-${String(i).padStart(2, '0')}`;
      expect((await send(page, 'POST', 'api/v1/namespaces/pages/configmaps', { metadata: { name } })).status).toBe(201);
    }
    await go(page, '#/api/v1/namespaces/pages/configmaps');
    await page.getByLabel('limit').selectOption('10');
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('10');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByTestId('page-number').innerText()).toBe('2');
    await expect.poll(() => rowNames(page)).toEqual(['cm-10', 'cm-11', 'kube-root-ca.crt']);
    expect((await pageFetch(page, 'api/v1/namespaces/pages/configmaps/cm-11', { method: 'DELETE' })).status).toBe(200);
    await expect.poll(() => rowNames(page)).toEqual(['cm-10', 'kube-root-ca.crt']);
    expect((await send(page, 'POST', 'api/v1/namespaces/pages/configmaps', { metadata: { name: 'cm-10a' } })).status).toBe(201);
    await expect.poll(() => rowNames(page)).toEqual(['cm-10', 'cm-10a', 'kube-root-ca.crt']);
    expect(await page.getByTestId('page-number').innerText()).toBe('2');
  });

  it('Export → Reset → Import keeps three managers exactly; open views read the cluster again', async () => {
    expect((await send(page, 'POST', 'api/v1/namespaces', { metadata: { name: 'owners' } })).status).toBe(201);
    const cm = 'api/v1/namespaces/owners/configmaps';
    const apply = (manager: string, data: Record<string, string>) =>
      send(page, 'PATCH', `${cm}/shared?fieldManager=${manager}&force=true`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data }, 'application/apply-patch+yaml');
    expect((await apply('alice', { a: '1' })).status).toBe(201);
    expect((await apply('bob', { b: '2' })).status).toBe(200);
    expect((await send(page, 'PATCH', `${cm}/shared?fieldManager=carol`, { data: { c: '3' } }, 'application/merge-patch+json')).status).toBe(200);
    const exported = await pageFetch(page, '__playground/export');
    expect(exported.status).toBe(200);

    await go(page, '#/api/v1/namespaces/owners/configmaps/shared');
    await expect.poll(() => page.getByRole('list', { name: 'Field managers' }).innerText()).toContain('carol');

    await page.getByRole('button', { name: 'Reset cluster' }).click();
    const resetDialog = page.getByRole('alertdialog', { name: 'Reset the cluster?' });
    await page.screenshot({ path: join(UI_SHOTS, 'reset-confirm.png') });
    await resetDialog.getByRole('button', { name: 'Delete everything' }).click();
    // The open object view reads the new, empty cluster.
    await expect.poll(() => page.getByTestId('not-found').innerText()).toContain('shared does not exist');

    await page.getByLabel('Import').setInputFiles({ name: 'cluster.yaml', mimeType: 'application/yaml', buffer: Buffer.from(exported.body) });
    const dialog = page.getByRole('dialog', { name: 'Import complete' });
    await dialog.waitFor();
    expect(await dialog.innerText()).toMatch(/\d+ objects restored/);
    await page.screenshot({ path: join(UI_SHOTS, 'import-result.png') });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    // The same view, without navigating: the object is back with its three managers.
    await expect.poll(() => page.getByRole('list', { name: 'Field managers' }).innerText()).toContain('carol');
    const legend = await page.getByRole('list', { name: 'Field managers' }).innerText();
    expect(legend).toContain('alice');
    expect(legend).toContain('bob');

    const again = await pageFetch(page, '__playground/export');
    const names = ['owners', 'shared'];
    expect(userObjects(exported.body, names)).toHaveLength(2);
    expect(userObjects(again.body, names)).toEqual(userObjects(exported.body, names));
  });
});

describe('ownership timeline', () => {
  it('lists five writes by three managers and scrubs back to revision 2', async () => {
    const cm = 'api/v1/namespaces/default/configmaps';
    const apply = (manager: string, data: Record<string, string>, force = false) =>
      send(page, 'PATCH', `${cm}/history?fieldManager=${manager}${force ? '&force=true' : ''}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'history' }, data }, 'application/apply-patch+yaml');
    expect((await apply('alice', { a: '1' })).status).toBe(201);
    expect((await apply('bob', { b: '2' })).status).toBe(200);
    expect((await send(page, 'PATCH', `${cm}/history?fieldManager=carol`, { data: { a: '9' } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await apply('bob', { b: '3' })).status).toBe(200);
    expect((await apply('alice', { c: '4' })).status).toBe(200);
    await go(page, '#/api/v1/namespaces/default/configmaps/history');
    await page.getByRole('button', { name: 'History' }).click();
    const entries = page.getByTestId('timeline-entry');
    await expect.poll(() => entries.count()).toBe(5);
    expect(await page.getByTestId('writers').allInnerTexts()).toEqual(['alice (Apply)', 'bob (Apply)', 'carol (Update)', 'bob (Apply)', 'alice (Apply)']);
    expect(await entries.nth(2).getByTestId('changed-values').innerText()).toContain('.data.a');
    expect(await entries.nth(2).getByTestId('owner-changes').innerText()).toMatch(/\.data\.a \+carol −alice/);
    // alice's last apply leaves out a, which carol owns now: alice keeps c only. Nobody is gone yet;
    // scrub to revision 2: alice owns a, bob owns b.
    await page.getByRole('slider', { name: 'Revision' }).fill('2');
    await expect.poll(() => page.locator('.timeline h3').innerText()).toMatch(/^As it was at rv \d+ \(changed\)$/);
    const line = (text: RegExp) => page.locator('.timeline .owned-lines li').filter({ has: page.locator('code', { hasText: text }) });
    expect(await line(/^\s*a: "1"$/).getAttribute('data-owners')).toBe('alice');
    expect(await line(/^\s*b: "2"$/).getAttribute('data-owners')).toBe('bob');
    await page.screenshot({ path: join(UI_SHOTS, 'timeline.png') });
  });
});
