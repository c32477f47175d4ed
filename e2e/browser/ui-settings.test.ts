// The browser host's settings, identity switcher, warnings and audit in headless Chromium, each
// asserting on what the page shows: switching batch/v1beta1 off and on (tree, 404 in the request
// console, objects kept), a refused setting, the deprecation warning of a v1beta1 CronJob, and
// RBAC with the page acting as alice (Forbidden) and back to admin. Screenshots go to
// test-results/ui-screenshots/ like the other UI tests.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useUiSession, pageFetch, stopServiceWorkers, UI_SHOTS, waitReady } from './harness';

const DEPRECATION = 'batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob';
const CRONJOB = `apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: tick
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
          - name: c
            image: busybox
`;

let page: Page;

const shot = (name: string) => page.screenshot({ path: join(UI_SHOTS, `${name}.png`) });
const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
const batchV1beta1InTree = () => page.locator('nav[aria-label="Resources"] ul[aria-label="batch/v1beta1"]').count();
const settingsResult = () => page.getByTestId('settings-result').innerText();

/** Replaces the text of the write editor by pasting, so Monaco keeps the YAML's indentation. */
async function setEditor(text: string): Promise<void> {
  const editor = page.locator('.write-actions .monaco-editor');
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('Control+V');
  await expect.poll(() => page.locator('.write-actions .monaco-editor .view-lines').innerText()).toContain('jobTemplate');
}

async function applySettings(runtimeConfig: string, accessControl: 'off' | 'RBAC' = 'off'): Promise<void> {
  await go('#/settings');
  const panel = page.getByRole('region', { name: 'Settings' });
  await panel.getByLabel('Runtime config').fill(runtimeConfig);
  await panel.getByLabel('Access control').selectOption(accessControl);
  await panel.getByRole('button', { name: 'Apply' }).click();
}

useUiSession((s) => (page = s.page));

describe('settings, identity and warnings', () => {
  it('creating a CronJob through batch/v1beta1 shows the deprecation warning beside the response and in the page list', async () => {
    await go('#/apis/batch/v1beta1/namespaces/default/cronjobs/tick');
    await expect.poll(() => page.getByTestId('not-found').innerText()).toContain('tick does not exist');
    await page.getByRole('radio', { name: 'Create' }).check();
    await setEditor(CRONJOB);
    await page.locator('.write-actions').getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => page.getByTestId('write-result').innerText()).toContain('Create: OK');
    expect(await page.getByTestId('write-result').getByTestId('warnings').innerText()).toBe(`Warning: ${DEPRECATION}`);
    // Reads of the deprecated version warn too; the page-wide list shows them, folded.
    await expect.poll(() => page.getByTestId('recent-warnings').innerText()).toContain(DEPRECATION);
    expect(await page.getByTestId('recent-warnings').innerText()).toContain('POST /apis/batch/v1beta1/namespaces/default/cronjobs');
    // The create was made as the field manager named in the form, not as the browser's User-Agent.
    await expect.poll(() => page.getByRole('list', { name: 'Field managers' }).innerText()).toMatch(/^\s*P\s+playground\s+Update$/);
    await shot('warning-deprecated-cronjob');
  });

  it('switches batch/v1beta1 off (gone from the tree, 404 in the request console), refuses bad text, and on again with the object kept', async () => {
    expect(await batchV1beta1InTree()).toBe(1);
    await applySettings('batch/v1beta1=false');
    await expect.poll(settingsResult).toMatch(/^Applied: the API restarted in \d+ ms\./);
    expect(await page.getByTestId('in-force-runtime-config').innerText()).toBe('batch/v1beta1=false');
    await expect.poll(batchV1beta1InTree).toBe(0);
    expect(await page.locator('nav[aria-label="Resources"] ul[aria-label="batch/v1"]').count()).toBe(1);
    await shot('settings-batch-v1beta1-off');

    await go('#/console');
    await page.getByLabel('Path').fill('/apis/batch/v1beta1/namespaces/default/cronjobs/tick');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response').innerText()).toMatch(/^404 Not Found/);
    await page.getByLabel('Path').fill('/apis/batch/v1/namespaces/default/cronjobs/tick');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response').innerText()).toMatch(/^200 OK[\s\S]*"name":\s*"tick"/);

    // Invalid text: the Node host's start-up error, and the previous settings stay in force.
    await applySettings('batch/v9=true');
    const refusal = page.getByTestId('settings-result').getByRole('alert');
    await expect.poll(() => refusal.innerText().catch(() => '')).toContain('invalid argument "batch/v9=true" for "--runtime-config" flag: unknown api groups batch/v9');
    expect(await refusal.innerText()).toContain('The previous settings stay in force.');
    expect(await page.getByTestId('in-force-runtime-config').innerText()).toBe('batch/v1beta1=false');
    await shot('settings-refused');

    await applySettings('');
    await expect.poll(settingsResult).toMatch(/^Applied/);
    await expect.poll(batchV1beta1InTree).toBe(1);
    await go('#/apis/batch/v1beta1/namespaces/default/cronjobs');
    await expect.poll(() => page.locator('.table-scroll tbody a').allInnerTexts()).toEqual(['tick']);
  });

  it('with RBAC on, alice (no bindings) sees Forbidden; the settings survive a worker restart; back to admin works', async () => {
    // With access control off, impersonation works but allows everything; the switcher says so.
    await page.getByRole('form', { name: 'Identity' }).getByLabel('User').fill('alice');
    await page.getByRole('form', { name: 'Identity' }).getByLabel('Groups').fill('dev, ops');
    await page.getByRole('button', { name: 'Act as' }).click();
    await expect.poll(() => page.getByTestId('identity').innerText()).toBe('Acting as alice (groups: dev, ops)');
    expect(await page.getByTestId('identity-hint').innerText()).toContain('Turn RBAC on in Settings to see denials');
    await go('#/api/v1/namespaces/default/configmaps');
    await expect.poll(() => page.getByTestId('row-count').innerText().catch(() => '')).toMatch(/^\d+$/);
    await shot('identity-switcher');

    await applySettings('', 'RBAC');
    await expect.poll(settingsResult).toMatch(/^Applied/);
    expect(await page.getByTestId('in-force-access-control').innerText()).toBe('RBAC');
    await expect.poll(() => page.getByTestId('identity-hint').count()).toBe(0);
    await go('#/api/v1/namespaces/default/configmaps');
    const forbidden = page.locator('#main').getByRole('alert').first();
    await expect.poll(() => forbidden.innerText().catch(() => '')).toBe('403 Forbidden: configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"');
    // Said once (the watch's own list is refused the same way), and no stale page shown with it.
    expect(await page.locator('#main').getByRole('alert').count()).toBe(1);
    expect(await page.getByTestId('list-rv').count()).toBe(0);
    // The tree's CRD watch is refused too: said, not swallowed.
    await expect.poll(() => page.locator('.resource-tree .note').innerText().catch(() => ''), { timeout: 15_000 }).toContain('watching CustomResourceDefinitions failed');
    await shot('rbac-forbidden-alice');

    // The request console sends the same identity and says so in kubectl's and curl's terms.
    await go('#/console');
    await page.getByLabel('Path').fill('/api/v1/namespaces/default/configmaps');
    expect(await page.getByTestId('kubectl').innerText()).toBe('kubectl --as=alice --as-group=dev --as-group=ops get --raw /api/v1/namespaces/default/configmaps');
    expect(await page.getByTestId('curl').innerText()).toContain("-H 'Impersonate-User: alice' -H 'Impersonate-Group: dev, ops'");
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response').innerText()).toMatch(/^403 Forbidden[\s\S]*User \\"alice\\" cannot list resource \\"configmaps\\"/);

    // A worker restart (the browser stops idle workers) and a reload keep RBAC and the identity.
    await stopServiceWorkers(page);
    await page.reload();
    await waitReady(page);
    await go('#/settings');
    await expect.poll(() => page.getByTestId('in-force-access-control').innerText().catch(() => '')).toBe('RBAC');
    expect(await page.getByTestId('identity').innerText()).toBe('Acting as alice (groups: dev, ops)');
    expect((await pageFetch(page, 'api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': 'alice' } })).status).toBe(403);

    await page.getByRole('button', { name: 'Back to admin' }).click();
    await expect.poll(() => page.getByTestId('identity').innerText()).toBe('Acting as admin (system:masters)');
    await go('#/api/v1/namespaces/default/configmaps');
    await expect.poll(() => page.getByTestId('row-count').innerText().catch(() => '')).toMatch(/^\d+$/);
    expect(await page.locator('#main').getByRole('alert').count()).toBe(0);
  });

  it('lists the audit events, including the denied request and the deprecated API annotation', async () => {
    await pageFetch(page, 'api/v1/namespaces/default/configmaps', { headers: { 'Impersonate-User': 'alice' } });
    await pageFetch(page, 'apis/batch/v1beta1/namespaces/default/cronjobs/tick');
    await go('#/audit');
    const audit = page.getByRole('region', { name: 'Audit' });
    await expect.poll(() => audit.locator('tbody tr').count()).toBeGreaterThan(1);
    // The denied request of the page acting as alice: the page's own admin, impersonating alice.
    await audit.getByLabel('Filter events').fill('403');
    await expect.poll(() => audit.locator('tbody tr').first().innerText()).toMatch(/as alice\s+list\s+\/api\/v1\/namespaces\/default\/configmaps\s+403/);
    await audit.getByLabel('Filter events').fill('cronjobs/tick');
    await expect.poll(() => audit.locator('tbody tr').first().innerText()).toContain('k8s.io/deprecated=true');
    await shot('audit-panel');
  });
});
