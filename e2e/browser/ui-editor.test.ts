// The YAML editor in headless Chromium: Monaco arrives lazily (the first view's JS stays small),
// and completion, hovers and validation come from the server's /openapi/v3 for the kind of each
// document in a multi-document text, CRDs included. Also: keyboard-only navigation and the dark
// theme at 1280×720, with screenshots in test-results/ui-screenshots/.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openApp, openUiSession, pageFetch, UI_SHOTS, type Site, type UiSession } from './harness';

const SHOTS = UI_SHOTS;

let site: Site;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const editor = () => page.locator('.write-actions .monaco-editor');
const hoverText = () => page.locator('.monaco-hover').allInnerTexts().then((t) => t.join('\n'));

async function paste(text: string): Promise<void> {
  await editor().click();
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
}

let session: UiSession;

beforeAll(async () => {
  session = await openUiSession();
  ({ site, browser, context, page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('YAML editor', () => {
  it('keeps Monaco out of the first view: initial JS ≤ 300 kB gzip', async () => {
    const html = await readFile(join(site.dir, 'index.html'), 'utf8');
    const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(0);
    let gzipped = 0;
    for (const file of initial) {
      const code = await readFile(join(site.dir, file));
      expect(code.toString('utf8')).not.toContain('monaco-editor');
      gzipped += gzipSync(code).length;
    }
    expect(gzipped).toBeLessThanOrEqual(300 * 1024);
    // Monaco comes with the first editor shown, as its own chunk.
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await page.evaluate(() => (location.hash = '#/apis/apps/v1/namespaces/default/deployments/lazy'));
    await editor().waitFor();
    expect(requested.some((u) => /\/assets\/monaco-loader-[^/]+\.js$/.test(u))).toBe(true);
  });

  it('completes, explains and validates fields from /openapi/v3, per document', async () => {
    await page.evaluate(() => (location.hash = '#/apis/apps/v1/namespaces/default/deployments/web'));
    await paste('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: many\n  colour: blue\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  ok: "yes"\n');
    // One error for each bad field of the first document; the ConfigMap is fine.
    await expect.poll(() => page.locator('.write-actions .squiggly-error').count(), { timeout: 10_000 }).toBe(2);
    await page.locator('.write-actions .view-line', { hasText: 'colour' }).locator('span', { hasText: 'colour' }).first().hover();
    await expect.poll(() => hoverText(), { timeout: 10_000 }).toContain('unknown field "spec.colour"');

    await page.locator('.write-actions .view-line', { hasText: 'replicas' }).locator('span', { hasText: /^replicas$/ }).first().hover();
    await expect.poll(() => hoverText(), { timeout: 10_000 }).toContain('.spec.replicas');
    expect(await hoverText()).toContain('integer (int32)');

    // Completion inside spec: on a new line under the last spec field, ask for suggestions, then
    // narrow them by typing.
    await page.locator('.write-actions .view-line', { hasText: 'colour' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Space');
    const suggest = page.locator('.write-actions .suggest-widget.visible');
    await expect.poll(() => suggest.innerText().catch(() => ''), { timeout: 10_000 }).toContain('replicas');
    await page.keyboard.type('revisionH', { delay: 50 });
    await expect.poll(() => suggest.innerText().catch(() => ''), { timeout: 10_000 }).toContain('revisionHistoryLimit');
    await page.screenshot({ path: join(SHOTS, 'editor-completion.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.write-actions .view-line', { hasText: 'revisionHistoryLimit:' }).count()).toBe(1);
  });

  it('knows a CRD’s schema as soon as it is served', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    };
    expect((await pageFetch(page, 'apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd) })).status).toBe(201);
    await page.evaluate(() => (location.hash = '#/apis/example.com/v1/namespaces/default/gadgets/g1'));
    await paste('apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: large\n');
    await expect.poll(() => page.locator('.write-actions .squiggly-error').count(), { timeout: 10_000 }).toBe(1);
    await paste('apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g1\nspec:\n  size: 3\n');
    await expect.poll(() => page.locator('.write-actions .squiggly-error').count(), { timeout: 10_000 }).toBe(0);
  });

  it('works with the keyboard alone and reads in the dark theme at 1280×720', async () => {
    const dark = await browser.newContext({ viewport: { width: 1280, height: 720 }, colorScheme: 'dark' });
    const { page: p } = await openApp(dark, site.url);
    await p.getByRole('navigation', { name: 'Resources' }).waitFor();
    // Tab from the top of the page reaches the kind filter; typing narrows the tree; Tab + Enter opens a kind.
    await p.keyboard.press('Tab');
    let guard = 0;
    while (!(await p.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Filter kinds')) && guard++ < 30) await p.keyboard.press('Tab');
    expect(guard).toBeLessThan(30);
    await p.keyboard.type('configm');
    await p.keyboard.press('Tab');
    await p.keyboard.press('Tab');
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('ConfigMap');
    await p.keyboard.press('Enter');
    await expect.poll(() => p.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/default/configmaps');
    await p.locator('.table-scroll').waitFor();
    const background = await p.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(13, 17, 23)');
    // Nothing sticks out sideways at 1280×720.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await p.screenshot({ path: join(SHOTS, 'dark-list.png') });
    await dark.close();
  });
});
