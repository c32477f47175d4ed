// Issue 5 acceptance with the real kubectl 1.34 and @kubernetes/client-node against the Node
// host: server-side apply, conflicts and --force-conflicts, client→server-side migration, diff,
// --show-managed-fields, server dry run, and kubectl's patching commands (patch, set image,
// rollout restart, edit). Request shapes behind each command: ../shared/kubectl-wire logs 05-08.
import { spawn } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, REPO_ROOT, type RunResult, startCluster } from './harness';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** Runs kubectl and fails with its output when the exit code is not 0. */
const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;

async function getJson(kind: string, name: string): Promise<any> {
  // kubectl hides managedFields unless asked.
  return JSON.parse(await ok(['get', kind, name, '-o', 'json', '--show-managed-fields']));
}

/** manager → operation of every managedFields entry. */
async function managers(kind: string, name: string): Promise<Record<string, string>> {
  const obj = await getJson(kind, name);
  return Object.fromEntries((obj.metadata.managedFields ?? []).map((e: any) => [e.manager, e.operation]));
}

/** kubectl with an extra environment (the harness passes a fixed one), e.g. KUBE_EDITOR. */
function kubectlWithEnv(args: string[], extra: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH, HOME: c.dir, KUBECONFIG: c.kubeconfig, ...extra };
    const child = spawn(join(REPO_ROOT, '.tools', 'bin', 'kubectl'), ['--cache-dir', join(c.dir, 'kube-cache'), ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

describe('kubectl apply --server-side', () => {
  it('creates, then updates; a no-op re-apply keeps the resourceVersion', async () => {
    expect(await ok(['apply', '--server-side', '-f', c.fixture('ssa-configmap.yaml')])).toBe('configmap/ssa-cm serverside-applied\n');
    const first = await getJson('configmap', 'ssa-cm');
    expect(first.data).toEqual({ a: '1', b: '2' });
    expect(await ok(['apply', '--server-side', '-f', c.fixture('ssa-configmap.yaml')])).toBe('configmap/ssa-cm serverside-applied\n');
    expect((await getJson('configmap', 'ssa-cm')).metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    await ok(['apply', '--server-side', '-f', c.fixture('ssa-deployment.yaml')]);
    // The deployment controller writes the status next to kubectl's apply.
    await eventually(async () => expect(await managers('deployment', 'ssa-web')).toEqual({ kubectl: 'Apply', 'kube-controller-manager': 'Update' }));
  });

  it('a second field manager changing the same field fails with the conflict; --force-conflicts takes it', async () => {
    const r = await c.kubectl(['apply', '--server-side', '--field-manager=other', '-f', c.fixture('ssa-deployment-scaled.yaml')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(r.stderr).toContain('--force-conflicts');
    expect((await getJson('deployment', 'ssa-web')).spec.replicas).toBe(2);

    await ok(['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', c.fixture('ssa-deployment-scaled.yaml')]);
    const live = await getJson('deployment', 'ssa-web');
    expect(live.spec.replicas).toBe(5);
    const entries = Object.fromEntries(live.metadata.managedFields.map((e: any) => [e.manager, e.fieldsV1]));
    expect(entries.other['f:spec']['f:replicas']).toEqual({});
    expect(entries.kubectl['f:spec']['f:replicas']).toBeUndefined();
  });

  it('get -o yaml --show-managed-fields prints the entries', async () => {
    const out = await ok(['get', 'configmap', 'ssa-cm', '-o', 'yaml', '--show-managed-fields']);
    const obj = parseYaml(out);
    expect(obj.metadata.managedFields).toHaveLength(1);
    expect(obj.metadata.managedFields[0]).toMatchObject({
      manager: 'kubectl',
      operation: 'Apply',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } },
    });
    // Without the flag kubectl hides them.
    expect(parseYaml(await ok(['get', 'configmap', 'ssa-cm', '-o', 'yaml'])).metadata.managedFields).toBeUndefined();
  });

  it('kubectl diff --server-side shows the change (exit 1) and nothing for an unchanged object (exit 0)', async () => {
    const changed = await c.kubectl(['diff', '--server-side', '-f', c.fixture('ssa-configmap-changed.yaml')]);
    expect(changed.stderr).toBe('');
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^-  a: "1"$/m);
    expect(changed.stdout).toMatch(/^\+  a: changed$/m);
    expect(changed.stdout).not.toMatch(/^[-+]  b:/m);
    const same = await c.kubectl(['diff', '--server-side', '-f', c.fixture('ssa-configmap.yaml')]);
    expect([same.code, same.stdout, same.stderr]).toEqual([0, '', '']);
    // The dry run wrote nothing.
    expect((await getJson('configmap', 'ssa-cm')).data.a).toBe('1');
  });
});

describe('client-side apply and migration', () => {
  it('kubectl diff (client-side) shows the change and nothing when unchanged', async () => {
    expect(await ok(['apply', '-f', c.fixture('ssa-csa.yaml')])).toBe('configmap/ssa-csa created\n');
    const same = await c.kubectl(['diff', '-f', c.fixture('ssa-csa.yaml')]);
    expect([same.code, same.stdout, same.stderr]).toEqual([0, '', '']);
    const changedFile = join(c.dir, 'ssa-csa-changed.yaml');
    await writeFile(changedFile, (await readFile(c.fixture('ssa-csa.yaml'), 'utf8')).replace('c: "3"', 'c: "4"'));
    const changed = await c.kubectl(['diff', '-f', changedFile]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^-  c: "3"$/m);
    expect(changed.stdout).toMatch(/^\+  c: "4"$/m);
  });

  it('kubectl apply then apply --server-side migrates the managers', async () => {
    expect(await managers('configmap', 'ssa-csa')).toEqual({ 'kubectl-client-side-apply': 'Update' });
    expect(await ok(['apply', '--server-side', '-f', c.fixture('ssa-csa.yaml')])).toBe('configmap/ssa-csa serverside-applied\n');
    expect(await managers('configmap', 'ssa-csa')).toEqual({ kubectl: 'Apply', 'kubectl-last-applied': 'Apply' });
    const obj = await getJson('configmap', 'ssa-csa');
    expect(obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"c":"3"');
  });
});

describe('server dry run and patching commands', () => {
  it('kubectl create --dry-run=server writes nothing', async () => {
    const out = await ok(['create', '--dry-run=server', '-f', c.fixture('deployment.yaml')]);
    expect(out).toBe('deployment.apps/web created (server dry run)\n');
    const r = await c.kubectl(['get', 'deployment', 'web']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (NotFound): deployments.apps "web" not found');
  });

  it('kubectl patch (strategic by default) and patch with no change', async () => {
    expect(await ok(['patch', 'configmap', 'ssa-cm', '-p', '{"data":{"s":"3"}}'])).toBe('configmap/ssa-cm patched\n');
    expect((await getJson('configmap', 'ssa-cm')).data).toEqual({ a: '1', b: '2', s: '3' });
    const before = (await getJson('configmap', 'ssa-cm')).metadata.resourceVersion;
    expect(await ok(['patch', 'configmap', 'ssa-cm', '-p', '{"data":{"s":"3"}}'])).toBe('configmap/ssa-cm patched (no change)\n');
    expect((await getJson('configmap', 'ssa-cm')).metadata.resourceVersion).toBe(before);
    expect(await managers('configmap', 'ssa-cm')).toEqual({ kubectl: 'Apply', 'kubectl-patch': 'Update' });
  });

  it('kubectl set image and rollout restart patch the pod template', async () => {
    expect(await ok(['set', 'image', 'deployment/ssa-web', 'nginx=nginx:1.28'])).toBe('deployment.apps/ssa-web image updated\n');
    expect(await ok(['rollout', 'restart', 'deployment/ssa-web'])).toBe('deployment.apps/ssa-web restarted\n');
    const live = await getJson('deployment', 'ssa-web');
    expect(live.spec.template.spec.containers.map((x: any) => [x.name, x.image])).toEqual([['nginx', 'nginx:1.28']]);
    expect(live.spec.template.metadata.annotations['kubectl.kubernetes.io/restartedAt']).toMatch(/^\d{4}-\d\d-\d\dT/);
    const m = await managers('deployment', 'ssa-web');
    expect(m['kubectl-set']).toBe('Update');
    expect(m['kubectl-rollout']).toBe('Update');
  });

  it('kubectl edit saves the edited object through a strategic merge patch', async () => {
    const editor = join(c.dir, 'edit.sh');
    await writeFile(editor, '#!/bin/sh\nsed -i \'s/^  b: "2"$/  b: edited/\' "$1"\n');
    await chmod(editor, 0o755);
    const r = await kubectlWithEnv(['edit', 'configmap', 'ssa-cm'], { KUBE_EDITOR: editor });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, 'configmap/ssa-cm edited\n', '']);
    expect((await getJson('configmap', 'ssa-cm')).data.b).toBe('edited');
    expect((await managers('configmap', 'ssa-cm'))['kubectl-edit']).toBe('Update');
  });
});

describe('@kubernetes/client-node apply and patch', () => {
  async function clients() {
    const k8s = await import('@kubernetes/client-node');
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(c.kubeconfig);
    // client-node 1.x refuses plain http unless TLS verification is explicitly off.
    kc.clusters = kc.clusters.map((cl) => ({ ...cl, skipTLSVerify: true }));
    return { k8s, core: kc.makeApiClient(k8s.CoreV1Api), objects: k8s.KubernetesObjectApi.makeApiClient(kc) };
  }

  it('server-side apply through KubernetesObjectApi.patch creates and updates; conflicts are 409', async () => {
    const { k8s, objects } = await clients();
    const spec = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cn-ssa', namespace: 'default' }, data: { a: '1' } };
    const created = await objects.patch(spec, undefined, undefined, 'cn-applier', false, k8s.PatchStrategy.ServerSideApply);
    expect((created as any).data).toEqual({ a: '1' });
    const updated = await objects.patch({ ...spec, data: { a: '1', b: '2' } }, undefined, undefined, 'cn-applier', false, k8s.PatchStrategy.ServerSideApply);
    expect((updated as any).data).toEqual({ a: '1', b: '2' });
    let code = 0;
    try {
      await objects.patch({ ...spec, data: { a: 'other' } }, undefined, undefined, 'cn-other', false, k8s.PatchStrategy.ServerSideApply);
    } catch (err) {
      code = (err as { code?: number }).code ?? -1;
    }
    expect(code).toBe(409);
    const forced = await objects.patch({ ...spec, data: { a: 'other' } }, undefined, undefined, 'cn-other', true, k8s.PatchStrategy.ServerSideApply);
    expect((forced as any).data).toEqual({ a: 'other', b: '2' });
  });

  it('patchNamespacedConfigMap with a merge patch, an apply patch and the default JSON patch', async () => {
    const { k8s, core } = await clients();
    const namespace = 'default';
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'cn-patch' }, data: { a: '1' } } });
    const merged = await core.patchNamespacedConfigMap({ name: 'cn-patch', namespace, body: { data: { b: '2' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect(merged.data).toEqual({ a: '1', b: '2' });
    const applied = await core.patchNamespacedConfigMap(
      { name: 'cn-patch', namespace, fieldManager: 'cn', force: true, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cn-patch' }, data: { c: '3' } } },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
    );
    expect(applied.data).toEqual({ a: '1', b: '2', c: '3' });
    expect(applied.metadata?.managedFields?.find((e) => e.manager === 'cn')?.operation).toBe('Apply');
    // No content-type option: client-node 1.x sends application/json-patch+json.
    const json = await core.patchNamespacedConfigMap({ name: 'cn-patch', namespace, body: [{ op: 'remove', path: '/data/a' }] });
    expect(json.data).toEqual({ b: '2', c: '3' });
  });
});
