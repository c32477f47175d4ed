// Admission webhooks served by the page, in headless Chromium: the Webhooks panel serves the
// deny example and creates its ValidatingWebhookConfiguration; a ConfigMap labelled reject=yes is
// denied with the webhook's message in the editor, an unlabelled one is created; the mutating
// example labels new ConfigMaps, also after the browser stopped the worker (it asks the page
// again); a stopped handler fails the next call per failurePolicy Fail; another tab may serve a
// path until it closes; a handler that throws fails the call and shows in the log. Screenshots go
// to test-results/ui-screenshots/ like the other UI tests.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, openUiSession, pageFetch, stopServiceWorkers, UI_SHOTS, type UiSession } from './harness';

const DENY = 'deny-rejected.kube-playground.local';
const DENY_MESSAGE = `admission webhook "${DENY}" denied the request: ConfigMaps labelled reject=yes are not allowed`;

let session: UiSession;
let page: Page;
let origin: string;

const shot = (name: string) => page.screenshot({ path: join(UI_SHOTS, `${name}.png`) });
const go = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
const panel = () => page.getByRole('region', { name: 'Webhooks' });
const panelResult = () => page.getByTestId('webhook-result').innerText();
const writeResult = () => page.getByTestId('write-result').innerText();

const configMap = (name: string, labels: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n${Object.keys(labels).length ? `  labels:\n${Object.entries(labels).map(([k, v]) => `    ${k}: "${v}"\n`).join('')}` : ''}data:\n  a: "1"\n`;

/** Serves one example from the panel and applies its configuration. */
async function serveExample(title: string, path: string): Promise<void> {
  await go('#/webhooks');
  await panel().getByRole('button', { name: title }).click();
  await panel().getByRole('button', { name: `Serve at ${path}` }).click();
  await expect.poll(panelResult).toBe(`Serving ${origin}${path} from this tab.`);
  await panel().getByRole('button', { name: 'Create configuration' }).click();
  await expect.poll(panelResult).toContain(`calls ${origin}${path}.`);
}

/** Creates a ConfigMap through the object view's editor (Create), as a learner would. */
async function createInEditor(name: string, labels: Record<string, string> = {}): Promise<void> {
  await go(`#/api/v1/namespaces/default/configmaps/${name}`);
  await expect.poll(() => page.getByTestId('not-found').innerText().catch(() => '')).toContain(`${name} does not exist`);
  await page.getByRole('radio', { name: 'Create' }).check();
  const editor = page.locator('.write-actions .monaco-editor');
  await editor.waitFor();
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => navigator.clipboard.writeText(t), configMap(name, labels));
  await page.keyboard.press('Control+V');
  await expect.poll(() => page.locator('.write-actions .monaco-editor .view-lines').innerText()).toContain(name);
  await page.locator('.write-actions').getByRole('button', { name: 'Create', exact: true }).click();
  await expect.poll(writeResult).not.toMatch(/^Create…/);
}

beforeAll(async () => {
  session = await openUiSession();
  page = session.page;
  origin = new URL(session.site.url).origin;
}, 120_000);

afterAll(async () => {
  await session?.close();
});

describe('webhooks served by the page', () => {
  it('the deny example rejects a ConfigMap labelled reject=yes and lets an unlabelled one in', async () => {
    await serveExample('Deny ConfigMaps labelled reject=yes', '/webhooks/deny-rejected');
    expect(await panelResult()).toBe(`ValidatingWebhookConfiguration deny-rejected applied: webhook "${DENY}" calls ${origin}/webhooks/deny-rejected.`);
    await shot('webhooks-panel-served');

    await createInEditor('rejected', { reject: 'yes' });
    await expect.poll(writeResult).toContain('Create failed');
    expect(await page.getByTestId('write-result').getByRole('alert').innerText()).toContain(DENY_MESSAGE);
    await shot('webhooks-denied-in-editor');

    await createInEditor('welcome');
    await expect.poll(writeResult).toContain('Create: OK');
    expect((await pageFetch(page, 'api/v1/namespaces/default/configmaps/welcome')).status).toBe(200);
    expect((await pageFetch(page, 'api/v1/namespaces/default/configmaps/rejected')).status).toBe(404);

    // The panel's log shows both calls, newest first.
    await go('#/webhooks');
    const rows = panel().getByTestId('webhook-log').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/\/webhooks\/deny-rejected\s+CREATE configmaps default\/welcome by kubernetes-admin\s+allowed/);
    expect(await rows.nth(1).innerText()).toMatch(/CREATE configmaps default\/rejected by kubernetes-admin\s+denied \(403\): ConfigMaps labelled reject=yes are not allowed/);
    await panel().getByTestId('webhook-log').scrollIntoViewIfNeeded();
    await shot('webhooks-call-log');
  });

  it('the mutating example adds its label, also after the browser stopped the worker', async () => {
    await serveExample('Add the label team=playground', '/webhooks/add-team');
    expect(await panelResult()).toContain('MutatingWebhookConfiguration add-team applied');

    await createInEditor('labelled', { app: 'demo' });
    await expect.poll(writeResult).toContain('Create: OK');
    expect(await page.getByTestId('write-result').getByTestId('warnings').innerText()).toBe('Warning: the add-team webhook labelled this object');
    await expect.poll(() => page.locator('.live-column').innerText()).toContain('team: playground');
    await shot('webhooks-mutated-object');

    // A restarted worker has lost the list of served paths: it asks the open pages again.
    await stopServiceWorkers(page);
    const created = await pageFetch(page, 'api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after-restart' } }) });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body).metadata.labels).toEqual({ team: 'playground' });
  });

  it('a stopped handler fails the next call per failurePolicy Fail', async () => {
    await go('#/webhooks');
    await panel().getByRole('button', { name: 'Stop serving /webhooks/deny-rejected' }).click();
    await expect.poll(() => panel().getByRole('list', { name: 'Served webhooks' }).innerText()).not.toContain('deny-rejected');

    await createInEditor('unserved');
    await expect.poll(writeResult).toContain('Create failed');
    const port = new URL(origin).port;
    expect(await page.getByTestId('write-result').getByRole('alert').innerText()).toContain(
      `Internal error occurred: failed calling webhook "${DENY}": Post "${origin}/webhooks/deny-rejected?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    await shot('webhooks-unserved-fails');
  });

  it('another tab may serve the path; closing it stops serving', async () => {
    const other = await session.context.newPage();
    await openApp(session.context, session.site.url, other);
    await other.evaluate(() => (location.hash = '#/webhooks'));
    const otherPanel = other.getByRole('region', { name: 'Webhooks' });
    await otherPanel.getByRole('button', { name: 'Deny ConfigMaps labelled reject=yes' }).click();
    await otherPanel.getByRole('button', { name: 'Serve at /webhooks/deny-rejected' }).click();
    await expect.poll(() => other.getByTestId('webhook-result').innerText()).toContain('Serving');

    const post = (name: string) => pageFetch(page, 'api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { reject: 'yes' } } }) });
    const denied = await post('from-first-tab');
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body).message).toBe(DENY_MESSAGE);
    await other.close();
    const unserved = await post('after-close');
    expect(unserved.status).toBe(500);
    expect(JSON.parse(unserved.body).message).toContain('connect: connection refused');
  });

  it('a handler that throws fails the call (HTTP 500 from the page) and shows the error in the log', async () => {
    await go('#/webhooks');
    await panel().getByRole('button', { name: 'Deny ConfigMaps labelled reject=yes' }).click();
    await panel().getByLabel('Function body').fill('return { allowed: request.object.spec.replicas > 0 };');
    await panel().getByRole('button', { name: 'Serve at /webhooks/deny-rejected' }).click();
    await expect.poll(panelResult).toContain('Serving');

    await go('#/console');
    await go('#/webhooks');
    // The form keeps the learner's function across views.
    expect(await panel().getByLabel('Function body').inputValue()).toBe('return { allowed: request.object.spec.replicas > 0 };');

    await createInEditor('thrown');
    await expect.poll(writeResult).toContain('Create failed');
    const reason = "TypeError: Cannot read properties of undefined (reading 'replicas')";
    expect(await page.getByTestId('write-result').getByRole('alert').innerText()).toContain(`failed calling webhook "${DENY}": an error on the server (${JSON.stringify(reason)}) has prevented the request from succeeding`);
    await go('#/webhooks');
    const newest = panel().getByTestId('webhook-log').locator('tbody tr').first();
    await expect.poll(() => newest.innerText()).toContain('CREATE configmaps default/thrown by kubernetes-admin');
    expect(await newest.locator('td').last().innerText()).toBe(`error: ${reason}`);
    await panel().getByTestId('webhook-log').scrollIntoViewIfNeeded();
    await shot('webhooks-handler-error');
  });
});
