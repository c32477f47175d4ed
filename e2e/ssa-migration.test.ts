// Issue 22: `kubectl apply` (client-side) then `kubectl apply --server-side` of a changed
// manifest, with the real kubectl 1.34 and kubectl 1.23, against the Node host. kube-apiserver
// v1.23 forces the conflicts the last-applied annotation explains for the manager `kubectl`,
// forgets the client-side applier, and rewrites the annotation to the applied configuration;
// kubectl 1.26+ then hands the annotation to its own `kubectl-last-applied` manager.
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, kubectlOk, REPO_ROOT, type RunResult, startCluster } from './harness';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
});
afterAll(async () => {
  await c?.stop();
});

/** kubectl 1.23 (extracted next to kubectl by scripts/tools.mjs). No /openapi/v2 yet: no client-side validation. */
function kubectl123(args: string[]): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const env = { PATH: process.env.PATH, HOME: c.dir, KUBECONFIG: c.kubeconfig };
    const child = spawn(join(REPO_ROOT, '.tools', 'bin', 'kubectl-1.23'), ['--cache-dir', join(c.dir, 'kube-cache-123'), ...args], { env });
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

type Kubectl = (args: string[]) => Promise<RunResult>;
const clients: Array<[string, Kubectl, string[]]> = [
  ['1.34', (args) => c.kubectl(args), []],
  ['1.23', kubectl123, ['--validate=false']],
];

async function ok(run: Kubectl, args: string[]): Promise<string> {
  const r = await run(args);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

async function getJson(name: string): Promise<any> {
  return JSON.parse((await kubectlOk(c, ['get', 'configmap', name, '-o', 'json', '--show-managed-fields'])).stdout);
}

async function manifest(name: string, data: Record<string, string>): Promise<string> {
  const file = join(c.dir, `${name}-${Object.values(data).join('')}.yaml`);
  const lines = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${name}`, '  labels:', '    app: demo', 'data:', ...Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`)];
  await writeFile(file, `${lines.join('\n')}\n`);
  return file;
}

describe.each(clients)('kubectl %s: client-side apply, then apply --server-side of a changed manifest', (version, run, flags) => {
  const name = `csa-to-ssa-${version.replace('.', '-')}`;

  it('succeeds; the data, the managers and the annotation are as kube-apiserver v1.23 leaves them', async () => {
    expect(await ok(run, ['apply', ...flags, '-f', await manifest(name, { a: '1', c: '3' })])).toBe(`configmap/${name} created\n`);
    const csa = await getJson(name);
    expect(csa.metadata.managedFields.map((e: any) => e.manager)).toEqual(['kubectl-client-side-apply']);

    const changed = await manifest(name, { a: '1', c: '4' });
    expect(await ok(run, ['apply', '--server-side', ...flags, '-f', changed])).toBe(`configmap/${name} serverside-applied\n`);
    const obj = await getJson(name);
    expect(obj.data).toEqual({ a: '1', c: '4' });
    const managers = Object.fromEntries(obj.metadata.managedFields.map((e: any) => [e.manager, e]));
    if (version === '1.23') {
      // The server's answer as it is: kubectl-client-side-apply (owner of the annotation)
      // forgotten, before-first-apply holding what existed (the annotation, data.a unchanged),
      // kubectl what it applied.
      expect(Object.keys(managers).sort()).toEqual(['before-first-apply', 'kubectl']);
      expect(managers['before-first-apply'].operation).toBe('Update');
      expect(managers['before-first-apply'].fieldsV1['f:metadata']['f:annotations']).toEqual({ '.': {}, [`f:${LAST_APPLIED}`]: {} });
      expect(managers['before-first-apply'].fieldsV1['f:data']).toEqual({ '.': {}, 'f:a': {} });
    } else {
      // kubectl 1.26+ goes on: it applies the annotation as kubectl-last-applied, folds
      // before-first-apply into kubectl's entry with a JSON patch of managedFields, and applies
      // again; that last apply by `kubectl` makes the server forget kubectl-last-applied, which
      // owns the annotation, as v1.23's lastAppliedManager forgets every owner of it.
      expect(Object.keys(managers)).toEqual(['kubectl']);
    }
    expect(managers.kubectl.operation).toBe('Apply');
    expect(managers.kubectl.fieldsV1).toEqual({ 'f:data': { 'f:a': {}, 'f:c': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    // The annotation is now what kubectl applied, as the server encodes it.
    const annotation: string = obj.metadata.annotations[LAST_APPLIED];
    expect(annotation.endsWith('}\n')).toBe(true);
    const applied = JSON.parse(annotation);
    expect(applied).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1', c: '4' }, metadata: { name, labels: { app: 'demo' } } });
    expect(Object.keys(applied)).toEqual([...Object.keys(applied)].sort());

    // A client-side apply afterwards works from the rewritten annotation (which lacks what
    // kubectl's own adds, `annotations: {}`, so the annotation is written again).
    expect(await ok(run, ['apply', ...flags, '-f', changed])).toBe(`configmap/${name} configured\n`);
  });

  it('a field someone else changed since is still a conflict, and the only one reported', async () => {
    const drift = `${name}-drift`;
    await ok(run, ['apply', ...flags, '-f', await manifest(drift, { a: '1', c: '3' })]);
    await ok(run, ['patch', 'configmap', drift, '--type=merge', '-p', '{"data":{"a":"edited"}}']);
    const r = await run(['apply', '--server-side', ...flags, '-f', await manifest(drift, { a: '2', c: '4' })]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('conflict with "kubectl-patch" using v1: .data.a');
    expect(r.stderr).not.toContain('.data.c');
    expect((await getJson(drift)).data).toEqual({ a: 'edited', c: '3' });
  });
});

it('the manifest files are what the tests meant to write', async () => {
  const text = await readFile(await manifest('check', { a: '1' }), 'utf8');
  expect(text).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: check\n  labels:\n    app: demo\ndata:\n  a: "1"\n');
});
