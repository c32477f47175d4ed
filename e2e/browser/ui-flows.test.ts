// The playground UI's acceptance flows in headless Chromium, each asserting on what the page
// shows: paging through 1,000 objects, server-side apply with a conflict preview and the ownership
// overlay, shared ownership, a watch seeing another tab's change, the request console's watch, and
// a finalizer holding an object in Terminating. Screenshots of the main views go to
// test-results/ui-screenshots/ for a person to look at.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { openUiSession, pageFetch, UI_SHOTS, type Site, type UiSession } from './harness';

const SHOTS = UI_SHOTS;

let site: Site;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`) });

async function go(p: Page, hash: string): Promise<void> {
  await p.evaluate((h) => (location.hash = h), hash);
}

const postJson = (p: Page, path: string, body: unknown) => pageFetch(p, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

/** Replaces the text of the visible editor by pasting, so Monaco keeps the YAML's indentation. */
async function setEditor(p: Page, text: string): Promise<void> {
  const editor = p.locator('.write-actions .monaco-editor');
  await editor.waitFor();
  await editor.click();
  await p.keyboard.press('Control+A');
  await p.evaluate((t) => navigator.clipboard.writeText(t), text);
  await p.keyboard.press('Control+V');
  await p.keyboard.press('Control+Home');
  // Monaco renders only the lines in view, in recycled DOM order: sort them by position. They must
  // be the first lines of the text, indented as written.
  const shown = () => editorText(p);
  await expect.poll(shown).toSatisfy((s: string) => text.startsWith(s.trimEnd()));
  expect((await shown()).split('\n').length).toBeGreaterThanOrEqual(Math.min(5, text.trim().split('\n').length));
}

/** The lines the visible editor shows, top to bottom. */
function editorText(p: Page): Promise<string> {
  return p.locator('.write-actions .monaco-editor .view-lines').evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('.view-line')]
      .sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top))
      .map((l) => (l.textContent ?? '').replace(/\u00a0/g, ' '))
      .join('\n')
      .replace(/\n+$/, ''),
  );
}

/** The ownership overlay's line whose text matches, and the managers it lists. */
function ownedLine(p: Page, text: RegExp): Locator {
  return p.locator('.owned-lines li').filter({ has: p.locator('code', { hasText: text }) });
}
/** spec.replicas' line: status.replicas (the deployment controller's) reads the same and comes after it. */
const specReplicas = (p: Page, n: number): Locator => ownedLine(p, new RegExp(`^\\s*replicas: ${n}$`)).first();
const ownersOf = async (line: Locator) => ((await line.getAttribute('data-owners', { timeout: 2_000 })) ?? '').split(' ').filter(Boolean).sort();

let session: UiSession;

beforeAll(async () => {
  session = await openUiSession();
  ({ site, browser, context, page } = session);
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('playground UI', () => {
  it('browses to a kind through the resource tree and pages through 1,000 objects', async () => {
    expect((await postJson(page, 'api/v1/namespaces', { metadata: { name: 'bulk' } })).status).toBe(201);
    await page.evaluate(async () => {
      for (let batch = 0; batch < 1000; batch += 50) {
        await Promise.all(
          Array.from({ length: 50 }, (_, i) => {
            const n = String(batch + i).padStart(4, '0');
            return fetch(new URL('api/v1/namespaces/bulk/configmaps', document.baseURI), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: `cm-${n}`, labels: { half: batch + i < 500 ? 'a' : 'b' } }, data: { n } }) }).then((r) => {
              if (r.status !== 201) throw new Error(`create cm-${n}: ${r.status}`);
            });
          }),
        );
      }
    });
    await page.getByLabel('Namespace').fill('bulk');
    await page.getByRole('navigation', { name: 'Resources' }).getByRole('link', { name: 'ConfigMap', exact: true }).click();
    expect(await page.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/bulk/configmaps');
    // 1,001 in the namespace: the 1,000 made here and kube-root-ca.crt (root-ca-cert-publisher), sorted last.
    await expect.poll(() => page.getByTestId('remaining').innerText()).toBe('951');
    await expect.poll(() => page.locator('.table-scroll tbody a').first().innerText()).toBe('cm-0000');
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['NAME', 'DATA', 'AGE']);
    await shot(page, 'list-first-page');

    await page.getByLabel('limit').selectOption('500');
    await expect.poll(() => page.getByTestId('remaining').innerText()).toBe('501');
    const token = await page.getByTestId('continue-token').innerText();
    expect(token.length).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByTestId('page-number').innerText()).toBe('2');
    await expect.poll(() => page.getByTestId('remaining').innerText()).toBe('1');
    expect(await page.getByTestId('row-count').innerText()).toBe('500');
    await expect.poll(() => page.locator('.table-scroll tbody a').first().innerText()).toBe('cm-0500');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => page.getByTestId('page-number').innerText()).toBe('3');
    await expect.poll(() => page.getByTestId('continue-token').innerText()).toBe('(last page)');
    await expect.poll(() => page.locator('.table-scroll tbody a').allInnerTexts()).toEqual(['kube-root-ca.crt']);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => page.locator('.table-scroll tbody a').first().innerText()).toBe('cm-0500');
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => page.locator('.table-scroll tbody a').first().innerText()).toBe('cm-0000');

    // All 1,000 on one page: only a window of rows is in the DOM, and scrolling reaches the end.
    await page.getByLabel('limit').selectOption('1000');
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('1000');
    expect(await page.locator('.table-scroll tbody a').count()).toBeLessThan(100);
    const scroller = page.locator('.table-scroll');
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect.poll(() => page.locator('.table-scroll tbody a').last().innerText()).toBe('cm-0999');
    await shot(page, 'list-1000-scrolled');

    await page.getByLabel('Label selector').fill('half=b');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('500');
    expect(await page.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/bulk/configmaps?labelSelector=half%3Db&limit=1000');
  });

  it('applies as A, conflicts as B, forces, and the overlay moves spec.replicas to B', async () => {
    const deployment = (replicas: number) =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.25\n`;
    await go(page, '#/apis/apps/v1/namespaces/default/deployments/web');
    await expect.poll(() => page.getByTestId('not-found').innerText()).toContain('web does not exist');
    await setEditor(page, deployment(1));
    await page.getByRole('combobox', { name: 'Field manager' }).fill('manager-a');
    await page.locator('.write-actions').getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => page.getByTestId('write-result').innerText()).toContain('Apply: OK');
    await expect.poll(() => ownersOf(specReplicas(page, 1))).toEqual(['manager-a']);
    expect(await ownersOf(ownedLine(page, /image: nginx:1.25/))).toEqual(['manager-a']);
    expect(await page.getByRole('list', { name: 'Field managers' }).innerText()).toContain('manager-a');

    // B changes replicas: the dry run finds the conflict and marks the line before anything is sent.
    await page.getByRole('combobox', { name: 'Field manager' }).fill('manager-b');
    await setEditor(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: default\nspec:\n  replicas: 3\n');
    await page.locator('.write-actions').getByRole('button', { name: 'Apply', exact: true }).click();
    const preview = page.getByRole('alertdialog', { name: 'Apply conflicts' });
    await preview.waitFor();
    expect(await preview.innerText()).toContain('.spec.replicas');
    expect(await preview.innerText()).toContain('manager-a');
    expect(await page.locator('.owned-lines li.conflict').allInnerTexts()).toEqual([expect.stringMatching(/replicas: 1/)]);
    expect(await page.getByTestId('write-result').innerText()).toContain('nothing was changed');
    await preview.scrollIntoViewIfNeeded();
    await shot(page, 'apply-conflict-preview');
    // The live object, the editor and the preview side by side: nothing sticks out at 1280×720.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);

    await preview.getByRole('button', { name: 'Take ownership (force)' }).click();
    await expect.poll(() => ownersOf(specReplicas(page, 3))).toEqual(['manager-b']);
    expect(await ownersOf(ownedLine(page, /image: nginx:1.25/))).toEqual(['manager-a']);
    expect(await ownersOf(ownedLine(page, /^\s*app: web$/).first())).toEqual(['manager-a']);
    expect(await preview.count()).toBe(0);
    await shot(page, 'ownership-after-force');

    // A applies its old config: conflict; "Share ownership" puts the live 3 in A's config, and
    // applying the same value makes A and B co-owners of spec.replicas.
    await page.getByRole('combobox', { name: 'Field manager' }).fill('manager-a');
    await setEditor(page, deployment(1));
    await page.locator('.write-actions').getByRole('button', { name: 'Apply', exact: true }).click();
    await preview.waitFor();
    await preview.getByRole('button', { name: 'Share ownership' }).click();
    await expect.poll(() => editorText(page)).toContain('replicas: 3');
    await page.locator('.write-actions').getByRole('button', { name: 'Apply', exact: true }).click();
    await expect.poll(() => page.getByTestId('write-result').innerText()).toContain('Apply: OK');
    await expect.poll(() => ownersOf(specReplicas(page, 3))).toEqual(['manager-a', 'manager-b']);
    // Pointing at a line shows every owner's full entry; the blame column names both.
    await specReplicas(page, 3).hover();
    const detail = await page.getByTestId('field-detail').innerText();
    expect(detail).toContain('.spec.replicas');
    expect(detail).toMatch(/manager-a · Apply · apps\/v1/);
    expect(detail).toMatch(/manager-b · Apply · apps\/v1/);
    expect(await specReplicas(page, 3).locator('.blame').innerText()).toMatch(/^manager-a, manager-b · Apply · \d+s$/);
    // The legend highlights exactly one manager's fields.
    await page.getByRole('list', { name: 'Field managers' }).getByRole('button', { name: /manager-b/ }).click();
    const selected = await page.locator('.owned-lines li.selected').evaluateAll((els) => els.map((e) => e.getAttribute('data-owners')));
    expect(selected.length).toBeGreaterThan(0);
    expect(selected.every((o) => (o ?? '').split(' ').includes('manager-b'))).toBe(true);
    const allB = await page.locator('.owned-lines li').evaluateAll((els) => els.filter((e) => (e.getAttribute('data-owners') ?? '').split(' ').includes('manager-b')).length);
    expect(selected.length).toBe(allB);
    // The keyboard reaches the same details: the object is one tab stop, the arrows move a line.
    await page.locator('.owned-lines').focus();
    await page.keyboard.press('End');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowDown');
    expect(await page.getByTestId('field-detail').innerText()).toMatch(/^Line 2|\.kind|\.apiVersion/);
    await shot(page, 'ownership-highlight');
    await shot(page, 'ownership-shared');
  });

  it('shows a change made in another tab through the live watch', async () => {
    await postJson(page, 'api/v1/namespaces', { metadata: { name: 'tabs' } });
    await go(page, '#/api/v1/namespaces/tabs/configmaps');
    // A new namespace holds only kube-root-ca.crt (root-ca-cert-publisher).
    await expect.poll(() => page.getByTestId('row-count').innerText()).toBe('1');
    const other = await context.newPage();
    await other.goto(site.url);
    expect((await postJson(other, 'api/v1/namespaces/tabs/configmaps', { metadata: { name: 'from-other-tab' }, data: { a: '1' } })).status).toBe(201);
    await expect.poll(async () => (await page.locator('.table-scroll tbody a').allInnerTexts()).sort()).toEqual(['from-other-tab', 'kube-root-ca.crt']);
    await expect.poll(() => page.getByRole('region', { name: 'Watch events' }).innerText()).toMatch(/ADDED tabs\/from-other-tab rv \d+/);
    await pageFetch(other, 'api/v1/namespaces/tabs/configmaps/from-other-tab', { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"data":{"a":"2"}}' });
    await expect.poll(() => page.getByRole('region', { name: 'Watch events' }).innerText()).toMatch(/MODIFIED tabs\/from-other-tab rv \d+/);
    // The header's namespace field names the namespace on screen, and the host bar's revision
    // follows the other tab's writes without a click on "Refresh status".
    expect(await page.getByRole('textbox', { name: 'Namespace' }).inputValue()).toBe('tabs');
    const latest = /MODIFIED tabs\/from-other-tab rv (\d+)/.exec(await page.getByRole('region', { name: 'Watch events' }).innerText())![1]!;
    // Controllers in the tab keep writing (leases, events), so the revision shown may already be
    // past the other tab's write; it must not be behind it.
    const shownRevision = async () => Number(/revision (\d+)/.exec(await page.getByTestId('status').innerText())?.[1] ?? 0);
    await expect.poll(shownRevision, { timeout: 10_000 }).toBeGreaterThanOrEqual(Number(latest));
    await shot(page, 'watch-other-tab');
    await other.close();
    // Enter in the namespace field shows the same kind in the namespace typed.
    await page.getByRole('textbox', { name: 'Namespace' }).fill('bulk');
    await page.getByRole('textbox', { name: 'Namespace' }).press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/bulk/configmaps');
  });

  it('creates from a list, patches (strategic) and shows a failed replace with its Status', async () => {
    await go(page, '#/api/v1/namespaces/tabs/configmaps');
    await page.getByLabel('Name', { exact: true }).fill('made-here');
    await page.getByRole('button', { name: 'Open or create' }).click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/api/v1/namespaces/tabs/configmaps/made-here');
    await page.getByRole('radio', { name: 'Create' }).check();
    await page.getByRole('button', { name: 'Start from a skeleton' }).click();
    await expect.poll(() => editorText(page)).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made-here\n  namespace: tabs');
    await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made-here\ndata:\n  a: "1"\n');
    await page.locator('.write-actions').getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => page.getByTestId('write-result').innerText()).toContain('Create: OK');
    await expect.poll(() => ownedLine(page, /^\s*a: "1"$/).count()).toBe(1);

    await page.getByRole('radio', { name: 'Patch' }).check();
    await page.getByLabel('patch type').selectOption('strategic');
    await setEditor(page, 'data:\n  b: "2"\n');
    await page.locator('.write-actions').getByRole('button', { name: 'Patch', exact: true }).click();
    await expect.poll(() => page.getByTestId('write-result').innerText()).toContain('Patch (strategic): OK');
    await expect.poll(() => ownedLine(page, /^\s*b: "2"$/).count()).toBe(1);
    expect(await ownedLine(page, /^\s*a: "1"$/).count()).toBe(1);

    await page.getByRole('radio', { name: 'Replace' }).check();
    await setEditor(page, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: someone-else\n');
    await page.locator('.write-actions').getByRole('button', { name: 'Replace', exact: true }).click();
    const error = page.getByTestId('write-result').getByRole('alert');
    await expect.poll(() => error.innerText().catch(() => '')).toMatch(/^400 BadRequest: the name of the object \(someone-else\) does not match the name on the URL \(made-here\)/);
    await shot(page, 'replace-error');
  });

  it('streams a watch in the request console and shows the kubectl and curl equivalents', async () => {
    await go(page, '#/console');
    await page.getByLabel('Path').fill('/api/v1/namespaces/tabs/configmaps');
    await page.getByLabel('Query').fill('watch=1&resourceVersion=0');
    expect(await page.getByTestId('curl').innerText()).toMatch(/^curl -sS -N .*\/api\/v1\/namespaces\/tabs\/configmaps\?watch=1&resourceVersion=0/);
    expect(await page.getByTestId('kubectl').innerText()).toBe("kubectl get --raw '/api/v1/namespaces/tabs/configmaps?watch=1&resourceVersion=0'");
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response').innerText()).toContain('"type":"ADDED","object":{"kind":"ConfigMap"');
    expect(await page.getByTestId('response').innerText()).toMatch(/^200 OK/);
    await postJson(page, 'api/v1/namespaces/tabs/configmaps', { metadata: { name: 'seen-by-console' } });
    await expect.poll(() => page.getByTestId('response').innerText()).toContain('"name":"seen-by-console"');
    await shot(page, 'request-console-watch');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);
  });

  it('shows an object held by a finalizer as Terminating until the finalizer is removed', async () => {
    await postJson(page, 'api/v1/namespaces/default/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] }, data: { a: '1' } });
    await go(page, '#/api/v1/namespaces/default/configmaps/held');
    await page.locator('.owned-lines').waitFor();
    expect(await page.getByTestId('terminating').count()).toBe(0);
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete held?' }).getByRole('button', { name: 'Delete held' }).click();
    await expect.poll(() => page.getByTestId('terminating').count()).toBe(1);
    expect(await page.getByRole('heading', { level: 2 }).innerText()).toContain('Terminating');
    expect(await page.locator('#main').innerText()).toContain('waiting for finalizers: example.com/hold');
    await page.locator('#main').evaluate((el) => (el.scrollTop = 0));
    await shot(page, 'terminating');

    // Remove the finalizer with a merge patch written in the patch editor.
    await page.getByRole('radio', { name: 'Patch' }).check();
    await setEditor(page, 'metadata:\n  finalizers: null\n');
    await page.locator('.write-actions').getByRole('button', { name: 'Patch', exact: true }).click();
    await expect.poll(() => page.getByTestId('not-found').count()).toBe(1);
    expect(await page.getByTestId('terminating').count()).toBe(0);
  });
});
