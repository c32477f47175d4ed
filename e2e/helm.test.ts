// helm 4 against the Node host: install, list, status, upgrade, rollback, history and uninstall of
// a small local chart (e2e/fixtures/chart-web: a ConfigMap and a Service). Helm keeps each
// revision in a Secret `sh.helm.release.v1.<name>.v<N>` (labels owner=helm, name, status,
// version) written and read as protobuf (../shared/kubectl-wire/logs/10-helm.txt); the tests read
// those Secrets back and decode data.release (base64 → gzip → JSON) to check they are intact.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

async function helm(args: string[]): Promise<string> {
  const r = await c.helm(args, { timeoutMs: 90_000 });
  if (r.code !== 0) throw new Error(`helm ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

async function kubectlJson(args: string[]): Promise<any> {
  const r = await c.kubectl([...args, '-o', 'json']);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstderr: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The release inside a helm Secret: data.release is base64 (Secret bytes) of base64 of gzip of JSON. */
function decodeRelease(secret: any): any {
  const helmText = Buffer.from(secret.data.release, 'base64').toString('latin1');
  const gz = Buffer.from(helmText, 'base64');
  expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
  return JSON.parse(gunzipSync(gz).toString('utf8'));
}

async function releaseSecret(name: string, revision: number): Promise<any> {
  return kubectlJson(['get', 'secret', `sh.helm.release.v1.${name}.v${revision}`]);
}

const CHART = () => c.fixture('chart-web');

describe('helm release lifecycle', () => {
  it('install creates the chart objects and a release Secret', async () => {
    const out = await helm(['install', 'web', CHART()]);
    expect(out).toMatch(/^NAME: web$/m);
    expect(out).toMatch(/^NAMESPACE: default$/m);
    expect(out).toMatch(/^STATUS: deployed$/m);
    expect(out).toMatch(/^REVISION: 1$/m);

    const cm = await kubectlJson(['get', 'configmap', 'web-config']);
    expect(cm.data).toEqual({ message: 'hello' });
    expect(cm.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'Helm', 'app.kubernetes.io/instance': 'web' });
    expect(cm.metadata.annotations).toMatchObject({ 'meta.helm.sh/release-name': 'web', 'meta.helm.sh/release-namespace': 'default' });
    const svc = await kubectlJson(['get', 'service', 'web-web']);
    expect(svc.spec.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }]);
    expect(svc.spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  });

  it('the release Secret is stored intact: type, labels and the gzipped release', async () => {
    const s = await releaseSecret('web', 1);
    expect(s.type).toBe('helm.sh/release.v1');
    expect(s.metadata.labels).toMatchObject({ owner: 'helm', name: 'web', status: 'deployed', version: '1' });
    const rel = decodeRelease(s);
    expect(rel.name).toBe('web');
    expect(rel.namespace).toBe('default');
    expect(rel.version).toBe(1);
    expect(rel.info.status).toBe('deployed');
    expect(rel.chart.metadata).toMatchObject({ name: 'chart-web', version: '0.1.0' });
    expect(rel.manifest).toContain('name: web-config');
    expect(rel.manifest).toContain('name: web-web');
  });

  it('list shows the release (table and JSON)', async () => {
    const table = await helm(['list']);
    expect(table).toMatch(/^NAME\s+NAMESPACE\s+REVISION\s+UPDATED\s+STATUS\s+CHART\s+APP VERSION\s*$/m);
    expect(table).toMatch(/^web\s+default\s+1\s+.+\s+deployed\s+chart-web-0\.1\.0\s+1\.0\s*$/m);
    const list = JSON.parse(await helm(['list', '-o', 'json']));
    expect(list).toEqual([expect.objectContaining({ name: 'web', namespace: 'default', revision: '1', status: 'deployed', chart: 'chart-web-0.1.0', app_version: '1.0' })]);
  });

  it('status reads the release back', async () => {
    const out = await helm(['status', 'web']);
    expect(out).toMatch(/^NAME: web$/m);
    expect(out).toMatch(/^STATUS: deployed$/m);
    expect(out).toMatch(/^REVISION: 1$/m);
  });

  it('upgrade writes revision 2 and supersedes revision 1', async () => {
    const out = await helm(['upgrade', 'web', CHART(), '--set', 'message=bye', '--set', 'port=8081']);
    expect(out).toContain('Release "web" has been upgraded. Happy Helming!');
    expect(out).toMatch(/^REVISION: 2$/m);
    expect((await kubectlJson(['get', 'configmap', 'web-config'])).data).toEqual({ message: 'bye' });
    expect((await kubectlJson(['get', 'service', 'web-web'])).spec.ports[0].port).toBe(8081);

    const v1 = await releaseSecret('web', 1);
    expect(v1.metadata.labels).toMatchObject({ owner: 'helm', status: 'superseded', version: '1' });
    expect(decodeRelease(v1).info.status).toBe('superseded');
    const v2 = await releaseSecret('web', 2);
    expect(v2.metadata.labels).toMatchObject({ owner: 'helm', name: 'web', status: 'deployed', version: '2' });
    const rel = decodeRelease(v2);
    expect(rel).toMatchObject({ name: 'web', version: 2, info: { status: 'deployed' }, config: { message: 'bye', port: 8081 } });
  });

  it('rollback to revision 1 writes revision 3 with the old values', async () => {
    const out = await helm(['rollback', 'web', '1']);
    expect(out).toContain('Rollback was a success! Happy Helming!');
    expect((await kubectlJson(['get', 'configmap', 'web-config'])).data).toEqual({ message: 'hello' });
    expect((await kubectlJson(['get', 'service', 'web-web'])).spec.ports[0].port).toBe(80);
    const v3 = await releaseSecret('web', 3);
    expect(v3.metadata.labels).toMatchObject({ owner: 'helm', status: 'deployed', version: '3' });
    expect(decodeRelease(v3)).toMatchObject({ name: 'web', version: 3, info: { status: 'deployed' } });
    expect((await releaseSecret('web', 2)).metadata.labels.status).toBe('superseded');
  });

  it('history lists the three revisions', async () => {
    const history = JSON.parse(await helm(['history', 'web', '-o', 'json']));
    expect(history.map((h: any) => [h.revision, h.status])).toEqual([
      [1, 'superseded'],
      [2, 'superseded'],
      [3, 'deployed'],
    ]);
    expect(history[2].description).toBe('Rollback to 1');
  });

  it('the release Secrets are found by helm\'s label selector', async () => {
    const list = await kubectlJson(['get', 'secrets', '-l', 'owner=helm,name=web']);
    expect(list.items.map((s: any) => s.metadata.name).sort()).toEqual(['sh.helm.release.v1.web.v1', 'sh.helm.release.v1.web.v2', 'sh.helm.release.v1.web.v3']);
    for (const s of list.items) expect(decodeRelease(s).name).toBe('web');
  });

  it('uninstall deletes the chart objects and the release Secrets', async () => {
    const out = await helm(['uninstall', 'web']);
    expect(out).toContain('release "web" uninstalled');
    const cm = await c.kubectl(['get', 'configmap', 'web-config']);
    expect(cm.code).toBe(1);
    expect(cm.stderr).toContain('configmaps "web-config" not found');
    const svc = await c.kubectl(['get', 'service', 'web-web']);
    expect(svc.stderr).toContain('services "web-web" not found');
    const left = await kubectlJson(['get', 'secrets', '-l', 'owner=helm']);
    expect(left.items).toEqual([]);
    expect(JSON.parse(await helm(['list', '-o', 'json']))).toEqual([]);
  });
});

describe('helm uninstall --keep-history', () => {
  it('keeps the release Secret with status uninstalled', async () => {
    await helm(['install', 'kept', CHART(), '--set', 'message=kept']);
    expect(await helm(['uninstall', 'kept', '--keep-history'])).toContain('release "kept" uninstalled');
    const s = await releaseSecret('kept', 1);
    expect(s.metadata.labels).toMatchObject({ owner: 'helm', name: 'kept', status: 'uninstalled' });
    expect(decodeRelease(s)).toMatchObject({ name: 'kept', info: { status: 'uninstalled' }, config: { message: 'kept' } });
    const list = JSON.parse(await helm(['list', '--uninstalled', '-o', 'json']));
    expect(list).toEqual([expect.objectContaining({ name: 'kept', status: 'uninstalled' })]);
  });
});
