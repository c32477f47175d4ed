// Accessibility and looks of the main screens: axe-core (injected by Playwright) finds no serious
// or critical violation on the welcome, lesson, object and list screens, in light and dark; each
// screen is saved at 1440×900 and 1024×768, light and dark (and the object view in presenter mode)
// under test-results/ui-screenshots/ for a person to look at; the header fits one line at 1024.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openUiSession, pageFetch, UI_SHOTS, type UiSession } from './harness';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let session: UiSession;
let page: Page;

beforeAll(async () => {
  session = await openUiSession();
  ({ page } = session);
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'look' }, data: { colour: 'blue', size: 'large' } };
  const res = await pageFetch(page, 'api/v1/namespaces/default/configmaps/look?fieldManager=alice', { method: 'PATCH', headers: { 'Content-Type': 'application/apply-patch+yaml' }, body: JSON.stringify(cm) });
  expect(res.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

async function seriousViolations(p: Page): Promise<string[]> {
  if (!(await p.evaluate(() => 'axe' in window))) await p.addScriptTag({ path: AXE });
  const { violations, rulesRun } = await p.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: Violation[]; passes: unknown[] }> } }).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return { violations: results.violations, rulesRun: results.violations.length + results.passes.length };
  });
  // axe really looked (colour contrast, names, landmarks...): an empty answer must not pass.
  expect(rulesRun).toBeGreaterThan(10);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id} (${v.help}): ${n.target.join(' ')} — ${n.failureSummary ?? ''}`));
}

const SCREENS: Array<[string, string, string]> = [
  ['welcome', '#/', 'h1'],
  ['lesson', '#/learn/first-apply/1', 'h1'],
  ['object', '#/api/v1/namespaces/default/configmaps/look', '.owned-lines'],
  ['list', '#/api/v1/namespaces/default/configmaps', '.table-scroll tbody a'],
];

describe('main screens', () => {
  for (const [name, hash, ready] of SCREENS) {
    it(`${name}: no serious or critical axe violations in light and dark; screenshots`, async () => {
      await page.evaluate((h) => (location.hash = h), hash);
      await page.locator(ready).first().waitFor();
      // Monaco (object view) arrives lazily; wait for it so it is checked too.
      if (name === 'object') await page.locator('.write-actions .monaco-editor').waitFor();
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [w, h] of [[1440, 900], [1024, 768]] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: join(UI_SHOTS, `screen-${name}-${w}x${h}-${scheme}.png`) });
        }
        expect(await seriousViolations(page), `${name} (${scheme})`).toEqual([]);
      }
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.emulateMedia({ colorScheme: 'light' });
    });
  }

  it('the header is one line at 1440×900 and 1024×768, in presenter mode too', async () => {
    await page.evaluate(() => (location.hash = '#/'));
    const header = page.locator('.app > header');
    for (const presenter of [false, true]) {
      if (presenter) await page.getByRole('button', { name: 'Presenter' }).click();
      for (const [w, h] of [[1440, 900], [1024, 768]] as const) {
        await page.setViewportSize({ width: w, height: h });
        const lineHeight = await page.getByRole('button', { name: 'Act as' }).evaluate((b) => b.getBoundingClientRect().height);
        expect((await header.boundingBox())!.height, `${w}×${h}${presenter ? ' presenter' : ''}`).toBeLessThan(lineHeight * 2);
      }
    }
    await page.getByRole('button', { name: 'Presenter' }).click();
    // Icons only at this width: keyboard focus shows a view's name, as hovering does.
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Lessons' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    const label = await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Lessons' }).evaluate((a) => getComputedStyle(a, '::after').content);
    expect(label).toBe('"Lessons"');
    await page.screenshot({ path: join(UI_SHOTS, 'header-focus-1024x768-light.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
  });

  it('presenter mode: large type, editor and live view side by side, kept across a reload', async () => {
    await page.evaluate(() => (location.hash = '#/api/v1/namespaces/default/configmaps/look'));
    await page.locator('.owned-lines').waitFor();
    const fontSize = () => page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
    expect(await fontSize()).toBe(14);
    await page.getByRole('button', { name: 'Presenter' }).click();
    expect(await page.getByRole('button', { name: 'Presenter' }).getAttribute('aria-pressed')).toBe('true');
    expect(await fontSize()).toBe(18);
    await page.reload();
    await page.locator('.owned-lines').waitFor({ timeout: 20_000 });
    expect(await fontSize()).toBe(18);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [w, h] of [[1440, 900], [1024, 768]] as const) {
        await page.setViewportSize({ width: w, height: h });
        // Side by side even at 1024: the live column and the editor column share one row.
        const live = (await page.locator('.live-column').boundingBox())!;
        const edit = (await page.locator('.edit-column').boundingBox())!;
        expect(edit.x).toBeGreaterThan(live.x + live.width - 1);
        expect(Math.abs(edit.y - live.y)).toBeLessThan(5);
        await page.screenshot({ path: join(UI_SHOTS, `presenter-object-${w}x${h}-${scheme}.png`) });
      }
      expect(await seriousViolations(page), `presenter (${scheme})`).toEqual([]);
    }
    await page.getByRole('button', { name: 'Presenter' }).click();
    expect(await fontSize()).toBe(14);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
