// CRDs shaped like real operators' install material (controller-gen output: descriptions at every
// level, printer columns with descriptions, a served deprecated version, x-kubernetes-*
// extensions, status and scale subresources, one schema over 256 KB) and custom resources using
// them, through the real kubectl 1.34 (apply, apply --server-side, diff, scale, explain, delete)
// and helm 4 (a chart with crds/ and templates/). The CRDs are our own: the Harbor CRD lives in
// the chart (e2e/fixtures/chart-harbor/crds), the big Armada CRD is generated (real-world-big-crd.ts).
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, eventually, kubectlOk, startCluster } from './harness';
import { BIG_CRD_NAME, bigCrd, bigCrdYaml } from './real-world-big-crd';

let c: Cluster;
let bigFile: string;
beforeAll(async () => {
  c = await startCluster();
  bigFile = join(c.dir, 'armada-crd.yaml');
  await writeFile(bigFile, bigCrdYaml());
});
afterAll(async () => {
  await c?.stop();
});

const HARBOR_CRD = 'harbors.fleet.example.dev';
const DEPRECATION = 'Warning: fleet.example.dev/v1beta1 Harbor is deprecated; use fleet.example.dev/v1 Harbor';
const crdFile = () => c.fixture('chart-harbor/crds/harbors.fleet.example.dev.yaml');
const harborsFile = () => c.fixture('real-world/harbors.yaml');

const ok = async (args: string[], stdin?: string): Promise<string> => (await kubectlOk(c, args, stdin)).stdout;
const getJson = async (args: string[]): Promise<any> => JSON.parse(await ok([...args, '-o', 'json']));

async function helm(args: string[]): Promise<string> {
  const r = await c.helm(args, { timeoutMs: 90_000 });
  if (r.code !== 0) throw new Error(`helm ${args.join(' ')} exited ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r.stdout;
}

/** The printed kube errors and warnings of a run, without kubectl's own client-side notices. */
const serverMessages = (stderr: string) => stderr.split('\n').filter((l) => l.trim() !== '');

function expectHarborCrdAsWritten(crd: any): void {
  const [v1, v1beta1] = crd.spec.versions;
  const schema = v1.schema.openAPIV3Schema;
  expect(schema.description).toBe('Harbor runs a set of moorings for visiting ships. It is the main object of the fleet operator.');
  expect(schema.properties.spec.properties.ports.items.properties.protocol).toEqual({ default: 'TCP', description: 'Protocol of the port.', enum: ['TCP', 'UDP', 'SCTP'], type: 'string' });
  expect(schema.properties.spec.properties.ports['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
  expect(schema.properties.spec.properties.maxUnavailable['x-kubernetes-int-or-string']).toBe(true);
  expect(schema.properties.spec.properties.template).toMatchObject({ 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true });
  expect(schema.properties.spec.properties.selector['x-kubernetes-map-type']).toBe('atomic');
  expect(schema.properties.spec.properties.tags['x-kubernetes-list-type']).toBe('set');
  expect(schema.properties.spec.properties.window).toEqual({ description: 'Window is when the next rotation may start.', format: 'date-time', nullable: true, type: 'string' });
  // CEL rules are alpha in v1.23 (CustomResourceValidationExpressions, off): the CRD strategy drops them.
  expect(schema.properties.spec['x-kubernetes-validations']).toBeUndefined();
  expect(v1.additionalPrinterColumns[0]).toEqual({ description: 'The number of harbor replicas asked for.', jsonPath: '.spec.replicas', name: 'Desired', type: 'integer' });
  expect(v1.subresources.scale).toEqual({ labelSelectorPath: '.status.selector', specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' });
  expect(v1beta1).toMatchObject({ name: 'v1beta1', served: true, storage: false, deprecated: true });
  expect(crd.spec.conversion).toEqual({ strategy: 'None' });
  expect(crd.status.storedVersions).toEqual(['v1']);
  expect(crd.status.conditions.find((x: any) => x.type === 'Established')?.status).toBe('True');
}

describe('a controller-gen style CRD with kubectl (client-side apply)', () => {
  it('apply creates it without a warning, keeping every description and extension', async () => {
    const r = await c.kubectl(['apply', '-f', crdFile()]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`customresourcedefinition.apiextensions.k8s.io/${HARBOR_CRD} created\n`);
    expectHarborCrdAsWritten(await getJson(['get', 'crd', HARBOR_CRD]));
  });

  it('diff is clean (exit 0); a second apply changes nothing on the server', async () => {
    const diff = await c.kubectl(['diff', '-f', crdFile()]);
    expect(diff).toMatchObject({ code: 0, stdout: '' });
    // As against kube: the manifest's status stanza and the dropped CEL rules differ from the live
    // object, so kubectl sends a patch ("configured"); the server resets both and nothing changes.
    expect(await ok(['apply', '-f', crdFile()])).toBe(`customresourcedefinition.apiextensions.k8s.io/${HARBOR_CRD} configured\n`);
    expect((await getJson(['get', 'crd', HARBOR_CRD])).metadata.generation).toBe(1);
  });

  it('kubectl wait --for condition=established (as install scripts do) is met', async () => {
    const r = await c.kubectl(['wait', '--for', 'condition=established', '--timeout=30s', `crd/${HARBOR_CRD}`]);
    expect(r.stdout).toBe(`customresourcedefinition.apiextensions.k8s.io/${HARBOR_CRD} condition met\n`);
    expect(r.code).toBe(0);
  });

  it('discovery lists the resource with its short name and category', async () => {
    const out = await eventually(async () => {
      const text = await ok(['api-resources', '--api-group=fleet.example.dev']);
      if (!/^harbors/m.test(text)) throw new Error(text);
      return text;
    });
    expect(out).toMatch(/^harbors\s+hb\s+fleet\.example\.dev\/v1\s+true\s+Harbor$/m);
  });

  it('explain shows the schema descriptions', async () => {
    const out = await ok(['explain', 'harbor.spec.ports.protocol']);
    expect(out).toMatch(/^FIELD:\s+protocol <string>$/m);
    expect(out).toContain('Protocol of the port.');
  });
});

describe('custom resources of the CRD with kubectl', () => {
  it('apply creates them; the deprecated version warns as its deprecationWarning says', async () => {
    const r = await c.kubectl(['apply', '-f', harborsFile()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(['harbor.fleet.example.dev/north created', 'harbor.fleet.example.dev/south created', 'harbor.fleet.example.dev/west created', ''].join('\n'));
    expect(serverMessages(r.stderr)).toEqual([DEPRECATION]);
  });

  it('the objects are stored pruned and defaulted by their version schema', async () => {
    const north = await getJson(['get', 'harbor', 'north']);
    expect(north.spec.ports).toEqual([
      { containerPort: 8080, name: 'http', protocol: 'TCP' },
      { containerPort: 53, name: 'dns', protocol: 'UDP' },
    ]);
    expect(north.spec.maxUnavailable).toBe('25%');
    expect(north.spec.template).toEqual({ apiVersion: 'v1', kind: 'Pod', metadata: { labels: { harbor: 'north' }, name: 'mooring' }, spec: { containers: [{ image: 'registry.example.dev/harbor:2.4', name: 'app' }] } });
    expect(north.spec.config).toEqual({ logLevel: 'debug', nested: { list: [1, 'two', { three: 3 }] }, retries: 3 });
    const west = await getJson(['get', 'harbor', 'west']);
    expect(west.apiVersion).toBe('fleet.example.dev/v1');
    expect(west.spec).toEqual({ replicas: 2, schedule: '@daily' });
  });

  it('a missing required field with a default is defaulted before validation; a bad value is refused as kube words it', async () => {
    const created = await ok(['create', '-f', '-', '-o', 'json'], JSON.stringify({ apiVersion: 'fleet.example.dev/v1', kind: 'Harbor', metadata: { name: 'east' }, spec: { schedule: '@hourly' } }));
    expect(JSON.parse(created).spec).toEqual({ replicas: 1, schedule: '@hourly' });
    const bad = await c.kubectl(['apply', '-f', '-'], { stdin: JSON.stringify({ apiVersion: 'fleet.example.dev/v1', kind: 'Harbor', metadata: { name: 'bad' }, spec: { replicas: -1 } }) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('The Harbor "bad" is invalid: ');
    expect(bad.stderr).toContain('spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0');
    await ok(['delete', 'harbor', 'east']);
  });

  it('diff is clean (exit 0); a second apply changes nothing on the server', async () => {
    const diff = await c.kubectl(['diff', '-f', harborsFile()]);
    expect(diff.stdout).toBe('');
    expect(diff.code).toBe(0);
    const again = await ok(['apply', '-f', harborsFile()]);
    // A JSON merge patch replaces whole lists: the server-defaulted `protocol` of north's first
    // port makes kubectl send `ports` again, as it does against kube; the object stays the same.
    expect(again).toBe(['harbor.fleet.example.dev/north configured', 'harbor.fleet.example.dev/south unchanged', 'harbor.fleet.example.dev/west unchanged', ''].join('\n'));
    expect((await getJson(['get', 'harbor', 'north'])).metadata.generation).toBe(1);
  });

  it('scale and status subresources drive the printer columns', async () => {
    expect(await ok(['scale', 'harbor', 'north', '--replicas=5'])).toBe('harbor.fleet.example.dev/north scaled\n');
    const status = { status: { replicas: 5, readyReplicas: 4, selector: 'harbor=north', conditions: [{ type: 'Ready', status: 'False', reason: 'Mooring', message: 'one mooring is still starting', lastTransitionTime: '2026-01-01T00:00:00Z' }] } };
    await ok(['patch', 'harbor', 'north', '--subresource=status', '--type=merge', '-p', JSON.stringify(status)]);
    const scale = JSON.parse(await ok(['get', '--raw', '/apis/fleet.example.dev/v1/namespaces/default/harbors/north/scale']));
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 5 }, status: { replicas: 5, selector: 'harbor=north' } });
    const wide = await ok(['get', 'harbors', '-o', 'wide']);
    expect(wide).toMatch(/^NAME\s+DESIRED\s+READY\s+SCHEDULE\s+AGE$/m);
    expect(wide).toMatch(/^north\s+5\s+4\s+0 \*\/6 \* \* \*\s+\d+s$/m);
    expect(wide).toMatch(/^south\s+1\s+\d+s$/m);
    const byCategory = await ok(['get', 'fleet']);
    expect(byCategory).toMatch(/^north\s+5\s+4\s+\d+s$/m);
  });

  it('apply --server-side and diff --server-side of the same objects in another namespace', async () => {
    await ok(['create', 'namespace', 'ssa']);
    const r = await c.kubectl(['apply', '--server-side', '-n', 'ssa', '-f', harborsFile()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(['harbor.fleet.example.dev/north serverside-applied', 'harbor.fleet.example.dev/south serverside-applied', 'harbor.fleet.example.dev/west serverside-applied', ''].join('\n'));
    expect(serverMessages(r.stderr)).toEqual([DEPRECATION]);
    const diff = await c.kubectl(['diff', '--server-side', '-n', 'ssa', '-f', harborsFile()]);
    expect(diff.stdout).toBe('');
    expect(diff.code).toBe(0);
    const north = await getJson(['get', 'harbor', 'north', '-n', 'ssa', '--show-managed-fields']);
    expect(north.metadata.managedFields.map((m: any) => [m.manager, m.operation])).toEqual([['kubectl', 'Apply']]);
    expect(north.spec.window).toBeNull(); // nullable: the applied null is kept
  });

  it('apply --server-side of the CRD after client-side apply: spec.versions (atomic) conflicts, --force-conflicts takes it', async () => {
    // The live versions lack the dropped CEL rules, so the applied list differs from what
    // kubectl-client-side-apply owns: kube reports the conflict too.
    const r = await c.kubectl(['apply', '--server-side', '-f', crdFile()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apiextensions\.k8s\.io\/v1: \.spec\.versions$/m);
    const forced = await c.kubectl(['apply', '--server-side', '--force-conflicts', '-f', crdFile()]);
    expect(forced.stderr).toBe('');
    expect(forced.stdout).toBe(`customresourcedefinition.apiextensions.k8s.io/${HARBOR_CRD} serverside-applied\n`);
    expect(forced.code).toBe(0);
    expectHarborCrdAsWritten(await getJson(['get', 'crd', HARBOR_CRD]));
  });

  it('delete -f of one manifest listing the CRD before its objects deletes all (the CRD terminates first)', async () => {
    const manifest = join(c.dir, 'install.yaml');
    await writeFile(manifest, `${await readFile(crdFile(), 'utf8')}\n---\n${await readFile(harborsFile(), 'utf8')}`);
    const r = await c.kubectl(['delete', '-f', manifest]);
    expect(r.stderr.split('\n').filter((l) => l && l !== DEPRECATION)).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        `customresourcedefinition.apiextensions.k8s.io "${HARBOR_CRD}" deleted`,
        'harbor.fleet.example.dev "north" deleted from default namespace',
        'harbor.fleet.example.dev "south" deleted from default namespace',
        'harbor.fleet.example.dev "west" deleted from default namespace',
        '',
      ].join('\n'),
    );
    const gone = await eventually(async () => {
      const r = await c.kubectl(['get', '--raw', '/apis/fleet.example.dev/v1/namespaces/ssa/harbors']);
      if (r.code === 0) throw new Error('harbors still served');
      return r;
    });
    expect(gone.stderr).toContain('Error from server (NotFound): the server could not find the requested resource');
    expect(await ok(['get', 'crd', '-o', 'name'])).toBe('');
  });
});

describe('a CRD over 256 KB', () => {
  it('is really over the annotation limit', () => {
    expect(JSON.stringify(bigCrd()).length).toBeGreaterThan(262_144);
  });

  it('client-side apply is refused as kube refuses it: the last-applied annotation is too long', async () => {
    const r = await c.kubectl(['apply', '-f', bigFile]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`The CustomResourceDefinition "${BIG_CRD_NAME}" is invalid: metadata.annotations: Too long: must have at most 262144 bytes\n`);
    const get = await c.kubectl(['get', 'crd', BIG_CRD_NAME]);
    expect(get.stderr).toContain(`customresourcedefinitions.apiextensions.k8s.io "${BIG_CRD_NAME}" not found`);
  });

  it('create works (no annotation), then delete', async () => {
    expect(await ok(['create', '-f', bigFile])).toBe(`customresourcedefinition.apiextensions.k8s.io/${BIG_CRD_NAME} created\n`);
    const crd = await getJson(['get', 'crd', BIG_CRD_NAME]);
    expect(crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.section39.properties.field19.description).toMatch(/^Field 19 of section 39\. /);
    expect(await ok(['delete', '-f', bigFile])).toBe(`customresourcedefinition.apiextensions.k8s.io "${BIG_CRD_NAME}" deleted\n`);
  });

  it('apply --server-side works, twice, diff --server-side is clean, and its objects are served', async () => {
    expect(await ok(['apply', '--server-side', '-f', bigFile])).toBe(`customresourcedefinition.apiextensions.k8s.io/${BIG_CRD_NAME} serverside-applied\n`);
    expect(await ok(['apply', '--server-side', '-f', bigFile])).toBe(`customresourcedefinition.apiextensions.k8s.io/${BIG_CRD_NAME} serverside-applied\n`);
    const diff = await c.kubectl(['diff', '--server-side', '-f', bigFile]);
    expect(diff).toMatchObject({ code: 0, stdout: '' });
    const armada = { apiVersion: 'fleet.example.dev/v1', kind: 'Armada', metadata: { name: 'grand' }, spec: { flagship: 'north', section07: { field01: 3, field02: true, field03: '50%' } } };
    await eventually(() => ok(['apply', '--server-side', '-f', '-'], JSON.stringify(armada)));
    expect((await getJson(['get', 'armada', 'grand'])).spec).toEqual(armada.spec);
    expect(await ok(['get', 'armadas'])).toMatch(/^grand\s+north$/m);
    expect(await ok(['delete', 'crd', BIG_CRD_NAME])).toBe(`customresourcedefinition.apiextensions.k8s.io "${BIG_CRD_NAME}" deleted\n`);
  });
});

describe('a helm chart shipping the CRD in crds/ and custom resources in templates/', () => {
  // The fixture chart, plus the generated CRD over 256 KB in crds/ (as charts of big operators ship them).
  const CHART = () => join(c.dir, 'chart-harbor');

  it('install creates the CRDs first (the big one too), then the custom resources', async () => {
    await cp(c.fixture('chart-harbor'), CHART(), { recursive: true });
    await writeFile(join(CHART(), 'crds', 'armadas.fleet.example.dev.yaml'), bigCrdYaml());
    const out = await helm(['install', 'fleet', CHART()]);
    expect(out).toMatch(/^STATUS: deployed$/m);
    expectHarborCrdAsWritten(await getJson(['get', 'crd', HARBOR_CRD]));
    expect((await getJson(['get', 'crd', BIG_CRD_NAME])).spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.section00.description).toMatch(/^Section 0 groups/);
    const main = await getJson(['get', 'harbor', 'fleet-main']);
    expect(main.spec).toMatchObject({ replicas: 2, maxUnavailable: '25%', tags: ['blue', 'green'] });
    expect(main.metadata.annotations).toMatchObject({ 'meta.helm.sh/release-name': 'fleet' });
    expect((await getJson(['get', 'harbor', 'fleet-edge'])).spec).toEqual({ maxUnavailable: 1, replicas: 1, resources: { limits: { cpu: '500m', memory: '128Mi' } } });
  });

  it('upgrade changes the custom resources', async () => {
    const out = await helm(['upgrade', 'fleet', CHART(), '--set', 'replicas=4']);
    expect(out).toMatch(/^REVISION: 2$/m);
    expect((await getJson(['get', 'harbor', 'fleet-main'])).spec.replicas).toBe(4);
  });

  it('uninstall removes the custom resources and keeps the CRDs (helm never deletes crds/)', async () => {
    expect(await helm(['uninstall', 'fleet'])).toContain('release "fleet" uninstalled');
    await eventually(async () => {
      const left = await ok(['get', 'harbors', '-o', 'name']);
      if (left !== '') throw new Error(left);
    });
    expect((await getJson(['get', 'crd', HARBOR_CRD])).metadata.name).toBe(HARBOR_CRD);
    expect((await getJson(['get', 'crd', BIG_CRD_NAME])).metadata.name).toBe(BIG_CRD_NAME);
  });
});
