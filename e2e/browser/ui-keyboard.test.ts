// The keyboard and the URL: in the object view's editor Ctrl+Enter sends the chosen action and
// Ctrl+Shift+Enter its dry run; Delete asks first; a list page (with its page size) and the request
// console's request live in the URL, so a reload or a shared link shows the same screen.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotViews, useUiSession, pageFetch } from './harness';

let page: Page;
useUiSession((s) => (page = s.page));

const go = (p: Page, hash: string) => p.evaluate((h) => (location.hash = h), hash);
const postJson = (p: Page, path: string, body: unknown) => pageFetch(p, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
const result = () => page.getByTestId('write-result').innerText();

const shots = (name: string) => screenshotViews(page, name);

/** Types into the write editor by pasting (Monaco keeps the indentation); focus stays in it. */
async function setEditor(text: string): Promise<void> {
  const editor = page.locator('.write-actions .monaco-editor');
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
}

describe('keyboard', () => {
  it('Ctrl+Shift+Enter dry-runs and Ctrl+Enter applies from the editor, without touching its text', async () => {
    await go(page, '#/api/v1/namespaces/default/configmaps/keys');
    await page.getByTestId('not-found').waitFor();
    const config = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keys\n  namespace: default\ndata:\n  a: "1"\n';
    await setEditor(config);
    await page.keyboard.press('Control+Shift+Enter');
    await expect.poll(result).toMatch(/^Dry-run apply: OK/);
    // A dry run stores nothing.
    expect((await pageFetch(page, 'api/v1/namespaces/default/configmaps/keys')).status).toBe(404);
    await page.keyboard.press('Control+Enter');
    await expect.poll(result).toMatch(/^Apply: OK/);
    const stored = JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/configmaps/keys')).body) as { data: Record<string, string>; metadata: { managedFields: Array<{ manager: string; operation: string }> } };
    expect(stored.data).toEqual({ a: '1' });
    expect(stored.metadata.managedFields.map((m) => `${m.manager}:${m.operation}`)).toEqual(['playground:Apply']);
    // Monaco's own Ctrl+Enter would have inserted a line: the text is unchanged.
    expect(await page.locator('.write-actions .monaco-editor').evaluate((el) => el.querySelectorAll('.view-line').length)).toBe(config.split('\n').length);

    // From another field of the section (the field manager), the same shortcuts work.
    await page.getByRole('radio', { name: 'Patch' }).check();
    await setEditor('data:\n  b: "2"\n');
    await page.getByRole('combobox', { name: 'Field manager' }).fill('bob');
    await page.getByRole('combobox', { name: 'Field manager' }).press('Control+Shift+Enter');
    await expect.poll(result).toMatch(/^Dry-run patch \(merge\): OK/);
    expect(JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/configmaps/keys')).body).data).toEqual({ a: '1' });
    await page.getByRole('combobox', { name: 'Field manager' }).press('Control+Enter');
    await expect.poll(result).toMatch(/^Patch \(merge\): OK/);
    expect(JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/configmaps/keys')).body).data).toEqual({ a: '1', b: '2' });
  });

  it('Delete asks first; Cancel (the focused answer) keeps the object', async () => {
    await postJson(page, 'api/v1/namespaces/default/configmaps', { metadata: { name: 'doomed' } });
    await go(page, '#/api/v1/namespaces/default/configmaps/doomed');
    await page.locator('.owned-lines').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete doomed?' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('propagationPolicy=Background');
    expect(await ask.getByRole('button', { name: 'Cancel' }).evaluate((b) => b === document.activeElement)).toBe(true);
    await shots('delete-confirm');
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    expect((await pageFetch(page, 'api/v1/namespaces/default/configmaps/doomed')).status).toBe(200);
    await page.getByRole('button', { name: 'Delete' }).click();
    await ask.getByRole('button', { name: 'Delete doomed' }).click();
    await expect.poll(() => page.getByTestId('not-found').count()).toBe(1);
    expect((await pageFetch(page, 'api/v1/namespaces/default/configmaps/doomed')).status).toBe(404);
  });
});

describe('the URL holds the view', () => {
  it('a list page and its page size survive a reload', async () => {
    expect((await postJson(page, 'api/v1/namespaces', { metadata: { name: 'paged' } })).status).toBe(201);
    for (let i = 0; i < 12; i++) await postJson(page, 'api/v1/namespaces/paged/configmaps', { metadata: { name: `cm-${String(i).padStart(2, '0')}` } });
    await go(page, '#/api/v1/namespaces/paged/configmaps');
    await page.getByLabel('limit').selectOption('10');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/paged/configmaps?limit=10');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/paged/configmaps?limit=10&page=2');
    await expect.poll(() => page.getByTestId('page-number').innerText()).toBe('2');
    await page.reload();
    await expect.poll(() => page.getByTestId('page-number').innerText(), { timeout: 20_000 }).toBe('2');
    expect(await page.getByLabel('limit').inputValue()).toBe('10');
    expect(await page.locator('.table-scroll tbody a').allInnerTexts()).toEqual(['cm-10', 'cm-11', 'kube-root-ca.crt']);
    // Back goes to the first page again.
    await page.goBack();
    await expect.poll(() => page.getByTestId('page-number').innerText()).toBe('1');
  });

  it('the request console keeps its request in the URL', async () => {
    await go(page, '#/console');
    await page.getByLabel('Method').selectOption('PATCH');
    await page.getByLabel('Path').fill('/api/v1/namespaces/default/configmaps/keys');
    await page.getByLabel('Query').fill('fieldManager=carol');
    await page.getByLabel('Headers').fill('Content-Type: application/merge-patch+json');
    await page.getByLabel('Body').fill('{"data":{"c":"3"}}');
    await expect.poll(() => page.evaluate(() => location.hash)).toContain('body=');
    await page.reload();
    await page.getByLabel('Path').waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('Method').inputValue()).toBe('PATCH');
    expect(await page.getByLabel('Path').inputValue()).toBe('/api/v1/namespaces/default/configmaps/keys');
    expect(await page.getByLabel('Query').inputValue()).toBe('fieldManager=carol');
    expect(await page.getByLabel('Headers').inputValue()).toBe('Content-Type: application/merge-patch+json');
    expect(await page.getByLabel('Body').inputValue()).toBe('{"data":{"c":"3"}}');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response').innerText()).toMatch(/^200 OK/);
    expect(JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/configmaps/keys')).body).data).toEqual({ a: '1', b: '2', c: '3' });
  });
});
