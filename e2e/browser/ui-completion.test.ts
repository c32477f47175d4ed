// Value completion in the Monaco YAML editor (known values of imagePullPolicy offered after
// `imagePullPolicy: `), and the resource tree picking up a CRD as soon as it is created or deleted
// (discovery is otherwise cached for 30 s).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageFetch, useUiSession } from './harness';

let page: Page;
useUiSession((s) => (page = s.page));

describe('editor value completion', () => {
  it('offers IfNotPresent after `imagePullPolicy: ` and inserts the chosen value', async () => {
    await page.evaluate(() => (location.hash = '#/apis/apps/v1/namespaces/default/deployments/web'));
    const editor = page.locator('.write-actions .monaco-editor');
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.evaluate((t) => navigator.clipboard.writeText(t), 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n');
    await page.keyboard.press('Control+V');
    await page.keyboard.press('Control+End');
    // As one input (key by key, quick suggestions for the key race the typing on a busy machine).
    await page.keyboard.insertText('        imagePullPolicy: ');
    // Close whatever the typing opened, then ask.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Space');
    const suggest = page.locator('.write-actions .suggest-widget.visible');
    await expect.poll(() => suggest.innerText().catch(() => ''), { timeout: 10_000 }).toContain('IfNotPresent');
    const offered = await suggest.innerText();
    expect(offered).toContain('Always');
    expect(offered).toContain('Never');
    expect(offered).not.toContain('replicas'); // values, not field names
    await page.keyboard.type('IfN', { delay: 50 });
    await expect.poll(() => suggest.innerText().catch(() => ''), { timeout: 5_000 }).not.toContain('Always');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.write-actions .view-line', { hasText: 'imagePullPolicy' }).innerText(), { timeout: 5_000 }).toMatch(/imagePullPolicy:\s+IfNotPresent\s*$/);
  });
});

describe('resource tree and CRDs', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
  const gizmoLink = () => page.locator('nav[aria-label="Resources"] a', { hasText: /^Gizmo$/ });

  it('shows a created CRD right away and drops it when deleted', async () => {
    await page.locator('nav[aria-label="Resources"] li a').first().waitFor();
    expect(await gizmoLink().count()).toBe(0);
    const created = await pageFetch(page, 'apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd) });
    expect(created.status).toBe(201);
    // Well inside the 30 s the discovery cache would otherwise hold.
    await expect.poll(() => gizmoLink().count(), { timeout: 5_000 }).toBe(1);
    expect(await gizmoLink().getAttribute('href')).toBe('#/apis/example.com/v1/namespaces/default/gizmos');
    const deleted = await pageFetch(page, 'apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.com', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    await expect.poll(() => gizmoLink().count(), { timeout: 5_000 }).toBe(0);
  });
});
