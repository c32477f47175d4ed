// Dry runs and conflicts in the object view: a dry run shows the live object against the answer
// in Monaco's diff editor; a dry-run apply's 409 marks the conflicting lines in the learner's own
// editor ("yours: 2 / live: 1, owned by alice"); after a way out ("Stop managing", "Share
// ownership") the old 409 box goes and the page says to press Apply. Screenshots at 1440×900 and
// 1024×768, light and dark, go to test-results/ui-screenshots/.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshotViews, useUiSession, pageFetch } from './harness';

let page: Page;
useUiSession((s) => (page = s.page));

const go = (p: Page, hash: string) => p.evaluate((h) => (location.hash = h), hash);
const applyAs = (manager: string, data: Record<string, string>) =>
  pageFetch(page, `api/v1/namespaces/default/configmaps/dry?fieldManager=${manager}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/apply-patch+yaml' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' }, data }),
  });
const writeResult = () => page.getByTestId('write-result');

const shots = (name: string) => screenshotViews(page, name, { fullPage: true });

async function setEditor(text: string): Promise<void> {
  const editor = page.locator('.write-actions .monaco-editor').first();
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
}

const config = (data: Record<string, string>) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\n  namespace: default\ndata:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"\n`).join('')}`;

describe('dry run and conflicts', () => {
  it("marks the conflicting line in the learner's editor; a way out clears the 409 and says to press Apply", async () => {
    expect((await applyAs('alice', { a: '1' })).status).toBe(201);
    await go(page, '#/api/v1/namespaces/default/configmaps/dry');
    await page.locator('.owned-lines').waitFor();
    await setEditor(config({ a: '2', b: '2' }));
    await page.keyboard.press('Control+Shift+Enter');
    const marks = page.getByRole('list', { name: 'Conflicts in your configuration' });
    await marks.waitFor();
    expect(await marks.innerText()).toBe('line 7, .data.a: yours: 2 / live: 1, owned by alice');
    // The same words on the line itself, in the editor.
    await expect.poll(async () => (await page.locator('.write-actions .editor-conflict-note').allInnerTexts()).map((t) => t.replace(/\u00a0/g, ' ').trim())).toEqual(['⚠ yours: 2 / live: 1, owned by alice']);
    expect(await page.locator('.write-actions .editor-conflict-line').count()).toBe(1);
    expect(await writeResult().getByRole('alert').innerText()).toContain('409 Conflict');
    await shots('editor-conflict-marks');

    await page.getByRole('button', { name: 'Stop managing these fields' }).click();
    await expect.poll(() => writeResult().getByRole('alert').count()).toBe(0);
    expect(await page.getByTestId('next-step').innerText()).toBe('Removed .data.a from your configuration: the live values stay, owned by the other manager. Nothing has been sent yet: now press Apply (Ctrl+Enter) to send it.');
    expect(await page.getByRole('alertdialog', { name: 'Apply conflicts' }).count()).toBe(0);
    expect(await marks.count()).toBe(0);
    await page.locator('.write-actions').getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => writeResult().innerText()).toMatch(/^Apply: OK/);
    const stored = JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/configmaps/dry')).body) as { data: Record<string, string> };
    expect(stored.data).toEqual({ a: '1', b: '2' });
  });

  it('"Share ownership" says what changed and what to do next', async () => {
    expect((await applyAs('alice', { a: '1', c: '5' })).status).toBe(200);
    await setEditor(config({ c: '6' }));
    await page.keyboard.press('Control+Shift+Enter');
    await page.getByRole('alertdialog', { name: 'Apply conflicts' }).waitFor();
    await page.getByRole('button', { name: 'Share ownership' }).click();
    expect(await page.getByTestId('next-step').innerText()).toContain('Your configuration now has the live values of .data.c: applying them makes you a co-owner.');
    expect(await page.getByTestId('next-step').innerText()).toContain('now press Apply');
    expect(await writeResult().getByRole('alert').count()).toBe(0);
  });

  it('a dry run shows the live object against the answer in a diff editor, and stores nothing', async () => {
    await setEditor(config({ b: '3' }));
    await page.keyboard.press('Control+Shift+Enter');
    const diff = page.getByTestId('diff-view');
    await diff.waitFor();
    await diff.locator('.monaco-diff-editor').waitFor();
    expect(await writeResult().innerText()).toContain('Dry-run apply: OK (nothing was stored)');
    // One changed line: b goes from 2 to 3, on the live side and on the answer's side.
    // (Side by side when wide, one column with the removed line inline when narrow: read the text, not the layout.)
    const text = (selector: string) => diff.locator(selector).first().evaluate((el) => (el.textContent ?? '').replace(/\u00a0/g, ' '));
    await expect.poll(() => text('.editor.modified .view-lines:not(.line-delete)')).toContain('b: "3"');
    expect(await text('.editor.modified .view-lines:not(.line-delete)')).not.toContain('b: "2"');
    expect(await text('.editor.original .view-lines')).toContain('b: "2"');
    await expect.poll(() => diff.locator('.line-insert, .char-insert').count()).toBeGreaterThan(0);
    expect(await diff.locator('.line-delete, .char-delete').count()).toBeGreaterThan(0);
    expect(JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/configmaps/dry')).body).data.b).toBe('2');
    await shots('dry-run-diff');
  });
});
