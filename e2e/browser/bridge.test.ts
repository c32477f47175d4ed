// Acceptance of the kubectl bridge: headless Chromium opens the built site, pairs through the
// "Connect kubectl" panel with `npm run bridge`, and the real kubectl 1.34, helm 4 and a
// @kubernetes/client-node informer drive the cluster inside the tab. Every command also runs
// against the Node host (`npm run serve`) and the two outputs must be equal once uids,
// timestamps, resourceVersions and ages are normalised; a bridged GET answers the bytes the
// page's own fetch gets. Then the faults: closing the tab during `kubectl get -w`, re-pairing a
// reopened tab, a second tab taking over, and no token.
import { mkdirSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCluster, type Cluster, type RunResult } from '../harness';
import { buildAndServe, launchBrowser, openApp, stopServiceWorkers, type Site } from './harness';
import { fixture, pairPage, spawnKubectl, startBridgeProcess, type BridgeProcess, type RunningKubectl } from './bridge-harness';

const SHOTS = join(REPO_ROOT, 'test-results');
let site: Site;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let bridge: BridgeProcess;
let node: Cluster;

beforeAll(async () => {
  [site, node] = await Promise.all([buildAndServe('/'), startCluster()]);
  bridge = await startBridgeProcess(new URL(site.url).origin);
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  ({ page } = await openApp(context, site.url));
  await pairPage(page, bridge);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([bridge?.stop(), node?.stop(), site?.close()]);
});

/** What may differ between two fresh clusters running the same commands. */
function normalise(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/(resourceVersion"?:\s*)"\d+"/g, '$1"<rv>"')
    .replace(/(?<=\s)\d+[smhd](\d+[smh])?(?=\s|$)/gm, '<age>')
    .replace(/\/tmp\/(LIVE|MERGED)-\d+/g, '/tmp/$1')
    .replace(/^(---|\+\+\+) (\S+)\s.*$/gm, '$1 $2')
    .replace(/^LAST DEPLOYED: .*$/gm, 'LAST DEPLOYED: <time>')
    .replace(/https:\/\/127\.0\.0\.1:\d+|http:\/\/127\.0\.0\.1:\d+/g, '<server>');
}

const shown = (r: RunResult) => ({ code: r.code, stdout: normalise(r.stdout), stderr: normalise(r.stderr) });

/** Runs the same kubectl command against the tab (through the bridge) and the Node host. */
async function same(args: string[], expectCode = 0): Promise<RunResult> {
  const viaTab = await bridge.kubectl(args);
  const viaNode = await node.kubectl(args);
  expect(shown(viaTab), `kubectl ${args.join(' ')}`).toEqual(shown(viaNode));
  expect(viaTab.code, viaTab.stderr).toBe(expectCode);
  return viaTab;
}

async function sameHelm(args: string[]): Promise<void> {
  const viaTab = await bridge.helm(args, { timeoutMs: 90_000 });
  const viaNode = await node.helm(args, { timeoutMs: 90_000 });
  expect(shown(viaTab), `helm ${args.join(' ')}`).toEqual(shown(viaNode));
  expect(viaTab.code, viaTab.stderr).toBe(0);
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('kubectl, helm and client-node against a browser tab', () => {
  it('discovery and explain', async () => {
    await same(['api-resources']);
    await same(['explain', 'deployment.spec.replicas']);
  });

  it('create, apply, diff, patch, get and delete', async () => {
    await same(['create', '-f', fixture('configmap.yaml')]);
    await same(['create', '-f', fixture('configmap.yaml')], 1); // AlreadyExists
    await same(['apply', '-f', fixture('configmap-apply.yaml')]);
    await same(['apply', '-f', fixture('configmap-apply.yaml')]);
    await same(['diff', '-f', fixture('configmap-replace.yaml')], 1);
    await same(['patch', 'configmap', 'cm-create', '-p', '{"data":{"b":"patched"}}']);
    await same(['patch', 'configmap', 'cm-create', '--type', 'json', '-p', '[{"op":"remove","path":"/data/a"}]']);
    await same(['get', 'configmap', 'cm-create', '-o', 'yaml', '--show-managed-fields']);
    await same(['create', '-f', fixture('deployment.yaml')]);
    await same(['get', 'deployments,configmaps', '-l', 'app in (e2e,web)']);
    await same(['delete', 'configmap', 'cm-create']);
    await same(['delete', '-f', fixture('deployment.yaml')]);
    await same(['get', 'configmap', 'cm-create'], 1); // NotFound
  });

  it('server-side apply, and its conflict with another field manager', async () => {
    await same(['apply', '--server-side', '-f', fixture('ssa-configmap.yaml')]);
    const conflict = await same(['apply', '--server-side', '--field-manager', 'other', '-f', fixture('ssa-configmap-changed.yaml')], 1);
    expect(conflict.stderr).toContain('conflict with "kubectl"');
    await same(['get', 'configmap', 'ssa-cm', '-o', 'yaml', '--show-managed-fields']);
  });

  it('get -w streams the changes as they happen', async () => {
    const watchOn = async (target: { kubectl(args: string[]): Promise<RunResult> }, spawnIt: (args: string[]) => RunningKubectl) => {
      const w = spawnIt(['get', 'configmaps', '-l', 'app=watched', '-w', '--output-watch-events']);
      await new Promise((r) => setTimeout(r, 1500)); // the watch is open (kubectl prints nothing for an empty list)
      for (const args of [['create', 'configmap', 'watched', '--from-literal=a=1'], ['label', 'configmap', 'watched', 'app=watched'], ['delete', 'configmap', 'watched']]) {
        const r = await target.kubectl(args);
        expect(r.code, r.stderr).toBe(0);
      }
      await until(() => w.out().includes('DELETED'), 'the DELETED event');
      w.child.kill('SIGINT');
      await w.exited;
      return normalise(w.out());
    };
    const viaTab = await watchOn(bridge, bridge.spawnKubectl);
    const viaNode = await watchOn(node, (args) => spawnKubectl(node.dir, node.kubeconfig, args));
    expect(viaTab).toBe(viaNode);
    expect(viaTab).toMatch(/^ADDED\s+watched\s+1\s+<age>$/m);
  });

  it('helm install, upgrade and uninstall', async () => {
    await sameHelm(['install', 'settings', fixture('chart-cm')]);
    await sameHelm(['upgrade', 'settings', fixture('chart-cm')]);
    await same(['get', 'configmap', 'settings-settings', '-o', 'jsonpath={.data}']);
    await sameHelm(['uninstall', 'settings']);
  });

  it('a client-node informer lists and watches through the bridge', async () => {
    const k8s = await import('@kubernetes/client-node');
    const seen = async (kubeconfig: string, kubectl: (args: string[]) => Promise<RunResult>) => {
      const kc = new k8s.KubeConfig();
      kc.loadFromFile(kubeconfig);
      // client-node refuses plain http unless told to skip TLS checks (the Node host serves http).
      const cluster = kc.getCurrentCluster()!;
      if (cluster.server.startsWith('http:')) kc.loadFromOptions({ clusters: [{ ...cluster, skipTLSVerify: true }], users: kc.users, contexts: kc.contexts, currentContext: kc.currentContext });
      const core = kc.makeApiClient(k8s.CoreV1Api);
      const informer = k8s.makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default' }));
      const events: string[] = [];
      informer.on('add', (o) => events.push(`add ${o.metadata!.name}`));
      informer.on('update', (o) => events.push(`update ${o.metadata!.name} ${JSON.stringify(o.data)}`));
      informer.on('delete', (o) => events.push(`delete ${o.metadata!.name}`));
      const errors: unknown[] = [];
      informer.on('error', (err) => errors.push(err));
      await informer.start();
      try {
        await until(() => events.includes('add kube-root-ca.crt'), `the initial list (errors: ${String(errors)})`);
        for (const args of [['create', 'configmap', 'informed', '--from-literal=v=1'], ['patch', 'configmap', 'informed', '-p', '{"data":{"v":"2"}}'], ['delete', 'configmap', 'informed']]) expect((await kubectl(args)).code).toBe(0);
        await until(() => events.includes('delete informed'), 'the delete');
      } finally {
        await informer.stop();
      }
      return events.sort();
    };
    const viaTab = await seen(bridge.kubeconfig, (a) => bridge.kubectl(a));
    const viaNode = await seen(node.kubeconfig, (a) => node.kubectl(a));
    expect(viaTab).toEqual(viaNode);
    expect(viaTab).toContain('update informed {"v":"2"}');
  });

  it('the page shows kubectl as a field manager of what it applied', async () => {
    await page.goto(new URL('#/api/v1/namespaces/default/configmaps/ssa-cm', site.url).href);
    await page.getByRole('list', { name: 'Field managers' }).getByRole('listitem').filter({ hasText: 'kubectl Apply' }).waitFor();
  });

  it('the panel lists the bridged requests with their client, status and duration', async () => {
    await page.goto(new URL('#/kubectl', site.url).href);
    const panel = page.getByRole('region', { name: 'Connect kubectl' });
    await panel.getByRole('cell', { name: 'kubectl/v1.34.5' }).first().waitFor();
    await expect(panel.getByRole('cell', { name: /^Helm\// }).count()).resolves.toBeGreaterThan(0);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'bridge-panel.png') });
  });
});

/** A GET through the bridge with its token, as a client with no User-Agent sends it. */
function bridgedGet(path: string, accept: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const token = /token: "([^"]+)"/.exec(readFileSync(bridge.kubeconfig, 'utf8'))![1]!;
  return new Promise((resolve, reject) => {
    httpsRequest(`${bridge.url}${path}`, { rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}`, Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode!, headers: res.headers as Record<string, string>, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('bytes as the page gets them', () => {
  // Decision 0046: the page asks its worker by message, not fetch; the answer must not change.
  it('a GET through the bridge answers the status, headers and bytes of the page\'s own fetch', async () => {
    const path = '/api/v1/namespaces/default';
    for (const accept of ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']) {
      const own = await page.evaluate(
        async ({ path, accept }) => {
          const res = await fetch(path.slice(1), { headers: { Accept: accept } });
          return { status: res.status, headers: Object.fromEntries(res.headers), body: [...new Uint8Array(await res.arrayBuffer())] };
        },
        { path, accept },
      );
      const bridged = await bridgedGet(path, accept);
      const comparable = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([n]) => !['audit-id', 'date', 'connection', 'keep-alive', 'content-length'].includes(n)));
      expect(bridged.status, accept).toBe(own.status);
      expect(comparable(bridged.headers), accept).toEqual(comparable(own.headers));
      expect([...bridged.body], accept).toEqual(own.body);
      expect(bridged.body.length, accept).toBeGreaterThan(100);
    }
  });
});

describe('faults', () => {
  it('refuses a request without the token with kube\'s 401 Status', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      httpsRequest(`${bridge.url}/api/v1/namespaces`, { rejectUnauthorized: false }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve({ status: res.statusCode!, body: text }));
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(401);
    expect(JSON.parse(body)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('a worker stopped during get -w ends the watch with the 503 Status; the next request restarts it', async () => {
    const w = bridge.spawnKubectl(['get', 'configmaps', '-w']);
    await until(() => w.out().includes('kube-root-ca.crt'), 'the watch to list');
    await stopServiceWorkers(page);
    expect(await w.exited).toBe(0);
    expect(w.out()).toMatch(/^Failure\s+ServiceUnavailable\s+the playground tab is not connected$/m);
    const again = await bridge.kubectl(['get', 'configmap', 'ssa-cm', '-o', 'name']);
    expect(again.stdout, again.stderr).toBe('configmap/ssa-cm\n');
  });

  it('closing the tab ends a get -w with an error kubectl reports; a reopened tab pairs again', async () => {
    const w = bridge.spawnKubectl(['get', 'configmaps', '-w']);
    await until(() => w.out().includes('kube-root-ca.crt'), 'the watch to list');
    const from = bridge.output().length;
    await page.close();
    // The watch's last event is an ERROR with the 503 Status, which kubectl prints (as it does
    // when kube-apiserver ends a watch with an error), then the stream ends cleanly.
    expect(await w.exited).toBe(0);
    expect(w.out()).toMatch(/^Failure\s+ServiceUnavailable\s+the playground tab is not connected$/m);
    await bridge.waitFor(/disconnected/, from);
    const refused = await bridge.kubectl(['get', 'configmaps']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error from server (ServiceUnavailable): the playground tab is not connected');

    // The cluster lives in the browser profile (IndexedDB): a new tab serves the same objects.
    ({ page } = await openApp(context, site.url));
    await pairPage(page, bridge);
    const back = await bridge.kubectl(['get', 'configmap', 'ssa-cm', '-o', 'name']);
    expect(back.stdout, back.stderr).toBe('configmap/ssa-cm\n');
  });

  it('a second tab that pairs takes over, and the first tab says so', async () => {
    const from = bridge.output().length;
    const { page: second } = await openApp(context, site.url);
    await pairPage(second, bridge);
    expect(bridge.output().slice(from)).toContain('it replaces the tab paired before');
    await page.getByTestId('bridge-status').getByText('another tab paired with the bridge', { exact: false }).waitFor();
    expect((await bridge.kubectl(['get', 'ns', 'default', '-o', 'name'])).stdout).toBe('namespace/default\n');
    await page.screenshot({ path: join(SHOTS, 'bridge-panel-replaced.png') });
    page = second;
  });
});
