// Issue 25 in the page: a rollout walked through with the cluster clock paused, stepped and
// resumed from the header. The pods appear (bound, ContainerCreating) while time stands still,
// run after a step past the kubelet delay, and an image change rolls one surge pod at a time as
// the clock is stepped; the lists show the status columns, the object view the Events. Screenshots
// of the lists, the object view, the settings and the clock at 1440×900 and 1024×768, light and dark.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageFetch, UI_SHOTS, useUiSession } from './harness';

let page: Page;
useUiSession((s) => (page = s.page), 180_000);

const go = (p: Page, hash: string) => p.evaluate((h) => (location.hash = h), hash);
const DEPLOYMENTS = 'apis/apps/v1/namespaces/default/deployments';

/** The table on screen as objects keyed by column name (the header cells, as shown). */
async function tableRows(p: Page): Promise<Record<string, string>[]> {
  return p.evaluate(() => {
    const heads = [...document.querySelectorAll('.table-scroll thead th')].map((th) => th.textContent ?? '');
    return [...document.querySelectorAll('.table-scroll tbody tr:not([aria-hidden])')].map((tr) =>
      Object.fromEntries([...tr.querySelectorAll('td')].map((td, i) => [heads[i] ?? String(i), td.textContent ?? ''])),
    );
  });
}

const podStatuses = async (p: Page) => (await tableRows(p)).map((r) => `${r.READY} ${r.STATUS}`).sort();
const deploymentRow = async (p: Page) => (await tableRows(p)).find((r) => r.NAME === 'web');
const step = async (p: Page, label: '1s' | '10s') => {
  await p.getByRole('button', { name: `Step the cluster clock forward ${label}` }).click();
  // The step answers once the controllers settled; the buttons come back then.
  await expect.poll(() => p.getByRole('button', { name: `Step the cluster clock forward ${label}` }).isEnabled()).toBe(true);
};

async function shots(p: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await p.emulateMedia({ colorScheme: scheme });
    for (const [w, h] of [[1440, 900], [1024, 768]] as const) {
      await p.setViewportSize({ width: w, height: h });
      await p.waitForTimeout(150);
      await p.screenshot({ path: join(UI_SHOTS, `cluster-${name}-${w}x${h}-${scheme}.png`) });
    }
  }
  await p.emulateMedia({ colorScheme: 'light' });
  await p.setViewportSize({ width: 1280, height: 720 });
}

describe('a rollout with the clock paused, stepped and resumed', () => {
  it('applies cluster settings from the Settings view (a 2 s kubelet delay)', async () => {
    await go(page, '#/settings');
    const delay = page.getByLabel('Kubelet delay (--kubelet-delay)');
    await delay.fill('2s');
    await page.getByLabel('Nodes (--nodes)').fill('3');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('settings-result').innerText(), { timeout: 30_000 }).toMatch(/Applied: the API restarted/);
    expect(await page.getByTestId('in-force-cluster').innerText()).toBe('--controllers=* --nodes=3 --node-cpu=4 --node-memory=8Gi --kubelet-delay=2s --clock-speed=1');
    // A refusal reads as `npm run serve` prints it, and the settings in force stay.
    await delay.fill('2');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('settings-result').innerText(), { timeout: 30_000 }).toContain('invalid argument "2" for "--kubelet-delay" flag: time: invalid duration "2"');
    await shots(page, 'settings');
    await delay.fill('2s');
  });

  it('lists the simulated nodes as Ready', async () => {
    await go(page, '#/api/v1/nodes');
    await expect.poll(async () => (await tableRows(page)).map((r) => `${r.NAME} ${r.STATUS}`), { timeout: 20_000 }).toEqual(['node-1 Ready', 'node-2 Ready', 'node-3 Ready']);
    await shots(page, 'nodes');
  });

  it('holds new pods at ContainerCreating while the clock is paused, runs them after a step', async () => {
    await page.getByRole('button', { name: 'Pause the cluster clock' }).click();
    await expect.poll(() => page.getByTestId('clock-paused').isVisible()).toBe(true);
    const pausedAt = await page.getByTestId('cluster-time').innerText();

    const web = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.21' }] } } },
    };
    const created = await pageFetch(page, DEPLOYMENTS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(web) });
    expect(created.status).toBe(201);

    await go(page, '#/api/v1/namespaces/default/pods');
    await expect.poll(() => podStatuses(page), { timeout: 20_000 }).toEqual(['0/1 ContainerCreating', '0/1 ContainerCreating', '0/1 ContainerCreating']);
    // -o wide is on for pods: each shows the node the scheduler chose.
    expect((await tableRows(page)).map((r) => r.NODE).every((n) => /^node-[123]$/.test(n))).toBe(true);
    await page.waitForTimeout(1500);
    expect(await podStatuses(page)).toEqual(['0/1 ContainerCreating', '0/1 ContainerCreating', '0/1 ContainerCreating']);
    expect(await page.getByTestId('cluster-time').innerText()).toBe(pausedAt);
    await shots(page, 'pods-paused');

    await step(page, '1s');
    expect(await podStatuses(page)).toEqual(['0/1 ContainerCreating', '0/1 ContainerCreating', '0/1 ContainerCreating']);
    await step(page, '1s');
    await expect.poll(() => podStatuses(page), { timeout: 20_000 }).toEqual(['1/1 Running', '1/1 Running', '1/1 Running']);
    await shots(page, 'pods-running');

    await go(page, `#/${DEPLOYMENTS}`);
    await expect.poll(() => deploymentRow(page), { timeout: 20_000 }).toMatchObject({ READY: '3/3', 'UP-TO-DATE': '3', AVAILABLE: '3' });
  });

  it('rolls a new image one surge pod per step, the ready counts following', async () => {
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.22' }] } } } };
    const patched = await pageFetch(page, `${DEPLOYMENTS}/web`, { method: 'PATCH', headers: { 'Content-Type': 'application/strategic-merge-patch+json' }, body: JSON.stringify(patch) });
    expect(patched.status).toBe(200);
    // 3 replicas, maxSurge 25% (1) and maxUnavailable 25% (0): one new pod, none of the old go yet.
    await expect.poll(() => deploymentRow(page), { timeout: 20_000 }).toMatchObject({ READY: '3/3', 'UP-TO-DATE': '1', AVAILABLE: '3' });
    await shots(page, 'deployments-rolling');
    const seen = [`${(await deploymentRow(page))!['UP-TO-DATE']}`];
    for (let i = 0; i < 3; i++) {
      await step(page, '1s');
      await step(page, '1s');
      await expect.poll(async () => (await deploymentRow(page))?.['UP-TO-DATE'], { timeout: 20_000 }).not.toBe(seen.at(-1));
      seen.push((await deploymentRow(page))!['UP-TO-DATE']!);
      if (seen.at(-1) === '3') break;
    }
    expect(seen).toEqual(['1', '2', '3']);
    await step(page, '1s');
    await step(page, '1s');
    await expect.poll(() => deploymentRow(page), { timeout: 20_000 }).toMatchObject({ READY: '3/3', 'UP-TO-DATE': '3', AVAILABLE: '3' });

    await go(page, '#/api/v1/namespaces/default/pods');
    await expect.poll(() => podStatuses(page), { timeout: 20_000 }).toEqual(['1/1 Running', '1/1 Running', '1/1 Running']);
  });

  it('shows the Deployment’s conditions and Events, and kube-controller-manager as a manager', async () => {
    await go(page, `#/${DEPLOYMENTS}/web`);
    await expect.poll(() => page.locator('.legend').innerText(), { timeout: 20_000 }).toContain('kube-controller-manager');
    await page.getByRole('button', { name: 'Status & events' }).click();
    const events = page.getByTestId('object-events');
    await expect.poll(() => events.innerText(), { timeout: 20_000 }).toMatch(/ScalingReplicaSet[\s\S]*Scaled up replica set web-\w+ to 3/);
    expect(await page.getByRole('table', { name: 'Conditions' }).innerText()).toMatch(/Available\s+True\s+MinimumReplicasAvailable/);
    expect(await page.getByTestId('status-fields').innerText()).toMatch(/readyReplicas\s+3/);
    await shots(page, 'deployment-events');

    // A pod's events come from the scheduler and its node's kubelet.
    const pod = (JSON.parse((await pageFetch(page, 'api/v1/namespaces/default/pods')).body) as { items: Array<{ metadata: { name: string } }> }).items[0]!.metadata.name;
    await go(page, `#/api/v1/namespaces/default/pods/${pod}`);
    await expect.poll(() => page.locator('.legend').innerText(), { timeout: 20_000 }).toMatch(/kube-controller-manager[\s\S]*kubelet/);
    await shots(page, 'pod-owners');
    await page.getByRole('button', { name: 'Status & events' }).click();
    await expect.poll(() => page.getByTestId('object-events').innerText(), { timeout: 20_000 }).toMatch(/Scheduled\s[\s\S]*default-scheduler/);
    await shots(page, 'pod-events');
  });

  it('shows kube-scheduler as the manager of an unschedulable pod’s condition, with its FailedScheduling event', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nowhere' }, spec: { nodeSelector: { disk: 'ssd' }, containers: [{ name: 'c', image: 'nginx' }] } };
    expect((await pageFetch(page, 'api/v1/namespaces/default/pods', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(pod) })).status).toBe(201);
    await go(page, '#/api/v1/namespaces/default/pods/nowhere');
    await expect.poll(() => page.locator('.legend').innerText(), { timeout: 20_000 }).toContain('kube-scheduler');
    await shots(page, 'pod-unschedulable-owners');
    await page.getByRole('button', { name: 'Status & events' }).click();
    await expect.poll(() => page.getByTestId('object-events').innerText(), { timeout: 20_000 }).toMatch(/FailedScheduling[\s\S]*0\/3 nodes are available: 3 node\(s\) didn't match Pod's node affinity\/selector/);
    await shots(page, 'pod-unschedulable-events');
  });

  it('resumes: cluster time runs again', async () => {
    await page.getByRole('button', { name: 'Resume the cluster clock' }).click();
    await expect.poll(() => page.getByTestId('clock-paused').count()).toBe(0);
    const before = await page.getByTestId('cluster-time').innerText();
    await expect.poll(() => page.getByTestId('cluster-time').innerText(), { timeout: 5000 }).not.toBe(before);
    // Keyboard: the clock's controls are buttons in the tab order.
    await page.getByRole('button', { name: 'Pause the cluster clock' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('clock-paused').isVisible()).toBe(true);
  });

  it('offers the cluster lessons', async () => {
    await go(page, '#/learn/rollout-step-by-step/2');
    await page.getByRole('heading', { name: /^Step 2 of 6: Create a Deployment of three/ }).waitFor();
    await shots(page, 'lesson-rollout');
  });
});
