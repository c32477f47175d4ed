// API versions with the real kubectl: a CronJob created through the deprecated batch/v1beta1
// (kubectl prints the server's warning) and read through batch/v1; a CRD served at a deprecated
// and a current version; /metrics; the audit log; and --runtime-config switching batch/v1beta1
// off across a restart of the API over the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCluster, type Cluster } from './harness';

const CRONJOB_V1BETA1 = `apiVersion: batch/v1beta1
kind: CronJob
metadata:
  name: tick
  namespace: default
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

const WARNING = 'Warning: batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1 CronJob';

// A CRD served at v1beta1 (deprecated, default warning) and v1 (storage), with v1alpha1 unserved.
const GIZMO_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gizmos.e2e.example.com
spec:
  group: e2e.example.com
  scope: Namespaced
  names: {plural: gizmos, singular: gizmo, kind: Gizmo}
  versions:
  - name: v1alpha1
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
`;

const GIZMO_V1BETA1 = `apiVersion: e2e.example.com/v1beta1
kind: Gizmo
metadata:
  name: g1
  namespace: default
spec:
  size: 3
`;

describe('deprecated versions with kubectl', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster();
  });
  afterAll(async () => {
    await c?.stop();
  });

  it('create -f through batch/v1beta1 prints the warning; get cronjob.v1.batch reads the object', async () => {
    const created = await c.kubectl(['create', '-f', '-'], { stdin: CRONJOB_V1BETA1 });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(WARNING);
    expect(created.stdout).toContain('cronjob.batch/tick created');
    const got = await c.kubectl(['get', 'cronjob.v1.batch', 'tick', '-o', 'jsonpath={.apiVersion} {.spec.schedule}']);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toBe('batch/v1 */5 * * * *');
    expect(got.stderr).not.toContain('deprecated');
  });

  it('a multi-version CRD: create through the deprecated v1beta1 warns; both versions read the object', async () => {
    const crd = await c.kubectl(['create', '-f', '-'], { stdin: GIZMO_CRD });
    expect(crd.code, crd.stderr).toBe(0);
    const ready = await c.kubectl(['wait', '--for=condition=Established', 'crd/gizmos.e2e.example.com', '--timeout=20s']);
    expect(ready.code, ready.stderr).toBe(0);
    const created = await c.kubectl(['create', '-f', '-'], { stdin: GIZMO_V1BETA1 });
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain('Warning: e2e.example.com/v1beta1 Gizmo is deprecated; use e2e.example.com/v1 Gizmo');
    expect(created.stdout).toContain('gizmo.e2e.example.com/g1 created');
    const v1 = await c.kubectl(['get', 'gizmos.v1.e2e.example.com', 'g1', '-o', 'jsonpath={.apiVersion} {.spec.size}']);
    expect(v1.code, v1.stderr).toBe(0);
    expect(v1.stdout).toBe('e2e.example.com/v1 3');
    expect(v1.stderr).not.toContain('deprecated');
    const beta = await c.kubectl(['get', 'gizmos.v1beta1.e2e.example.com', 'g1', '-o', 'jsonpath={.apiVersion}']);
    expect(beta.code, beta.stderr).toBe(0);
    expect(beta.stdout).toBe('e2e.example.com/v1beta1');
    expect(beta.stderr).toContain('Warning: e2e.example.com/v1beta1 Gizmo is deprecated');
    const stored = await c.kubectl(['get', 'crd', 'gizmos.e2e.example.com', '-o', 'jsonpath={.status.storedVersions}']);
    expect(stored.stdout).toBe('["v1"]');
    const unserved = await c.kubectl(['get', '--raw', '/apis/e2e.example.com/v1alpha1/namespaces/default/gizmos/g1']);
    expect(unserved.code).not.toBe(0);
    expect(unserved.stderr).toContain('NotFound');
  });

  it('get --raw /metrics shows the deprecated-API gauge and request counters', async () => {
    const r = await c.kubectl(['get', '--raw', '/metrics']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('apiserver_requested_deprecated_apis{group="batch",removed_release="1.25",resource="cronjobs",subresource="",version="v1beta1"} 1');
    expect(r.stdout).toMatch(/apiserver_request_total\{code="201",component="apiserver",dry_run="",group="batch",resource="cronjobs",scope="resource",subresource="",verb="POST",version="v1beta1"\} 1/);
    // Deprecated in 1.22, so hidden in 1.23 unless --show-hidden-metrics-for-version=1.22.
    expect(r.stdout).not.toContain('etcd_object_counts');
  });
});

/** A Node host with extra flags over a data set of its own (the harness starts plain ones). */
async function startServer(dir: string, flags: string[]): Promise<{ child: ChildProcess; kubeconfig: string; stderr: () => string }> {
  const kubeconfig = join(dir, 'kubeconfig');
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', '--port', '0', '--kubeconfig', kubeconfig, ...flags], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      if (out.includes('kube-playground API listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
  return { child, kubeconfig, stderr: () => err };
}

function kubectl(kubeconfig: string, dir: string, args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(REPO_ROOT, '.tools', 'bin', 'kubectl'), ['--cache-dir', join(dir, 'cache'), ...args], { env: { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  return exited;
}

describe('--audit-log-path, --runtime-config and --feature-gates', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kube-playground-versions-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('the audit log holds the annotated event; batch/v1beta1=false answers 404', async () => {
    const auditPath = join(dir, 'audit.log');
    const s = await startServer(dir, ['--audit-log-path', auditPath]);
    try {
      const created = await kubectl(s.kubeconfig, dir, ['create', '-f', '-'], CRONJOB_V1BETA1);
      expect(created.code, created.stderr).toBe(0);
    } finally {
      await stop(s.child);
    }
    const lines = (await readFile(auditPath, 'utf8')).trim().split('\n').map((l) => JSON.parse(l));
    const create = lines.find((e) => e.verb === 'create' && e.objectRef?.resource === 'cronjobs');
    expect(create).toMatchObject({ apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', annotations: { 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.25' }, responseStatus: { code: 201 } });

    // The Node host keeps no data across processes: the disabled version is checked on a new one.
    const off = await startServer(dir, ['--runtime-config=batch/v1beta1=false']);
    try {
      await writeFile(join(dir, 'cj-v1.yaml'), CRONJOB_V1BETA1.replace('batch/v1beta1', 'batch/v1'));
      expect((await kubectl(off.kubeconfig, dir, ['create', '-f', join(dir, 'cj-v1.yaml')])).code).toBe(0);
      const gone = await kubectl(off.kubeconfig, dir, ['get', '--raw', '/apis/batch/v1beta1/namespaces/default/cronjobs/tick']);
      expect(gone.code).not.toBe(0);
      expect(gone.stderr).toContain('NotFound');
      const kept = await kubectl(off.kubeconfig, dir, ['get', 'cronjob.v1.batch', 'tick', '-o', 'name']);
      expect(kept.stdout.trim()).toBe('cronjob.batch/tick');
    } finally {
      await stop(off.child);
    }
  });

  it('ServerSideApply=false fails start-up with kube-apiserver\'s message', async () => {
    await expect(startServer(dir, ['--feature-gates=ServerSideApply=false'])).rejects.toThrow(
      'invalid argument "ServerSideApply=false" for "--feature-gates" flag: cannot set feature gate ServerSideApply to false, feature is locked to true',
    );
  });

  it('--show-hidden-metrics-for-version accepts only the previous minor', async () => {
    await expect(startServer(dir, ['--show-hidden-metrics-for-version=1.21'])).rejects.toThrow("--show-hidden-metrics-for-version must be omitted or have the value '1.22'. Only the previous minor version is allowed");
  });
});
