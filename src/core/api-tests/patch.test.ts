// PATCH through the whole core (issue 5): strategic merge patch directives on built-in kinds,
// no-op patches that answer 200 without a write, kubectl's client→server-side migration JSON
// patch of /metadata/managedFields, and dryRun on every write verb (nothing stored, no watch
// event, resourceVersion unchanged; bad values → 422 Invalid on the verb's options, as
// kube-apiserver v1.23 answers them: issue 5 asked for 400, issue 22 for kube's answer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH, collectStream, configMap, deployment, failure, startTestServer, uniqueName, type Reply, type TestClient } from '../testing/api-server';

const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

/** A Deployment with two containers (env keyed by name, ports keyed by containerPort+protocol, args atomic). */
function twoContainers(name: string): any {
  const d = deployment(name);
  d.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } };
  d.spec.template.spec.containers = [
    { name: 'app', image: 'app:1', args: ['--a', '--b'], env: [{ name: 'X', value: '1' }, { name: 'Y', value: '2' }], ports: [{ containerPort: 80, protocol: 'TCP' }] },
    { name: 'side', image: 'side:1' },
  ];
  return d;
}

async function created(url: string, body: any): Promise<any> {
  const r = await c.post(url, body);
  expect(r.status).toBe(201);
  return r.json;
}

describe('strategic merge patch on built-in kinds', () => {
  it('merges containers by name, env by name; args are replaced as a whole', async () => {
    const name = uniqueName('smp');
    await created(DEPLOY, twoContainers(name));
    const r = await c.patch(`${DEPLOY}/${name}`, { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:2', args: ['--c'], env: [{ name: 'Y', value: 'two' }] }] } } } }, SMP);
    expect(r.status).toBe(200);
    const [app, side] = r.json.spec.template.spec.containers;
    expect(app.image).toBe('app:2');
    expect(app.args).toEqual(['--c']);
    // Items keep the server's order (kube's normalizeElementOrder without $setElementOrder).
    expect(app.env).toEqual([{ name: 'X', value: '1' }, { name: 'Y', value: 'two' }]);
    expect(side.name).toBe('side');
  });

  it('$patch: delete removes a list item, $patch: replace replaces the list', async () => {
    const name = uniqueName('smpdel');
    await created(DEPLOY, twoContainers(name));
    const del = await c.patch(`${DEPLOY}/${name}`, { spec: { template: { spec: { containers: [{ name: 'side', $patch: 'delete' }] } } } }, SMP);
    expect(del.status).toBe(200);
    expect(del.json.spec.template.spec.containers.map((x: any) => x.name)).toEqual(['app']);
    const rep = await c.patch(`${DEPLOY}/${name}`, { spec: { template: { spec: { containers: [{ name: 'only', image: 'o:1' }, { $patch: 'replace' }] } } } }, SMP);
    expect(rep.status).toBe(200);
    expect(rep.json.spec.template.spec.containers.map((x: any) => [x.name, x.image])).toEqual([['only', 'o:1']]);
  });

  it('$setElementOrder orders the merged list; $retainKeys drops keys not listed', async () => {
    const name = uniqueName('smpord');
    await created(DEPLOY, twoContainers(name));
    const r = await c.patch(
      `${DEPLOY}/${name}`,
      {
        spec: {
          strategy: { $retainKeys: ['type'], type: 'Recreate' },
          template: { spec: { '$setElementOrder/containers': [{ name: 'side' }, { name: 'app' }], containers: [{ name: 'side', image: 'side:2' }] } },
        },
      },
      SMP,
    );
    expect(r.status).toBe(200);
    expect(r.json.spec.strategy).toEqual({ type: 'Recreate' });
    expect(r.json.spec.template.spec.containers.map((x: any) => [x.name, x.image])).toEqual([['side', 'side:2'], ['app', 'app:1']]);
  });

  it('$deleteFromPrimitiveList removes finalizers; a null deletes a map key', async () => {
    const name = uniqueName('smpfin');
    await created(CM, configMap(name, { a: '1', b: '2' }, { finalizers: ['x.io/a', 'x.io/b'] }));
    const r = await c.patch(`${CM}/${name}`, { metadata: { '$deleteFromPrimitiveList/finalizers': ['x.io/a'] }, data: { a: null } }, SMP);
    expect(r.status).toBe(200);
    expect(r.json.metadata.finalizers).toEqual(['x.io/b']);
    expect(r.json.data).toEqual({ b: '2' });
    // finalizers merge as a set: a patch adds without duplicating.
    const add = await c.patch(`${CM}/${name}`, { metadata: { finalizers: ['x.io/b', 'x.io/c'] } }, SMP);
    expect(add.json.metadata.finalizers).toEqual(['x.io/b', 'x.io/c']);
    await c.patch(`${CM}/${name}`, { metadata: { finalizers: null } });
  });

  it('the patch manager owns what it changed (Update entry)', async () => {
    const name = uniqueName('smpown');
    await created(`${DEPLOY}?fieldManager=creator`, twoContainers(name));
    const r = await c.patch(`${DEPLOY}/${name}?fieldManager=kubectl-set`, { spec: { template: { spec: { containers: [{ name: 'app', image: 'app:9' }] } } } }, SMP);
    const entry = r.json.metadata.managedFields.find((e: any) => e.manager === 'kubectl-set');
    expect(entry).toMatchObject({ operation: 'Update', apiVersion: 'apps/v1' });
    expect(entry.fieldsV1).toEqual({ 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"app"}': { 'f:image': {} } } } } } });
  });
});

describe('patches that change nothing', () => {
  it.each([
    ['merge', 'application/merge-patch+json', { data: { a: '1' } }],
    ['strategic', SMP, { data: { a: '1' } }],
    ['json', JSON_PATCH, [{ op: 'replace', path: '/data/a', value: '1' }]],
  ])('%s patch: 200, same resourceVersion, same managedFields', async (_label, type, patch) => {
    const name = uniqueName('noop');
    const obj = await created(`${CM}?fieldManager=creator`, configMap(name, { a: '1' }));
    const r = await c.patch(`${CM}/${name}?fieldManager=patcher`, patch, type);
    expect(r.status).toBe(200);
    expect(r.json.metadata.resourceVersion).toBe(obj.metadata.resourceVersion);
    expect(r.json.metadata.managedFields).toEqual(obj.metadata.managedFields);
  });
});

describe('managedFields written directly', () => {
  it("kubectl's migration JSON patch replacing /metadata/managedFields is accepted as sent", async () => {
    const name = uniqueName('migrate');
    const obj = await created(`${CM}?fieldManager=kubectl-client-side-apply`, configMap(name, { a: '1' }));
    const entries = [
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2030-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } },
      { manager: 'kubectl-last-applied', operation: 'Apply', apiVersion: 'v1', time: '2030-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': {} } } },
    ];
    const r = await c.patch(`${CM}/${name}?fieldManager=kubectl`, [
      { op: 'replace', path: '/metadata/managedFields', value: entries },
      { op: 'replace', path: '/metadata/resourceVersion', value: obj.metadata.resourceVersion },
    ], JSON_PATCH);
    expect(r.status).toBe(200);
    expect(r.json.metadata.managedFields).toEqual(entries);
    expect((await c.get(`${CM}/${name}`)).json.metadata.managedFields).toEqual(entries);
    // The migrated applier now owns data.a: another applier conflicts with it as an Apply owner.
    const conflict = await c.patch(`${CM}/${name}?fieldManager=other`, JSON.stringify(configMap(name, { a: '2' })), APPLY);
    expect(failure(conflict)).toEqual({ code: 409, reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "kubectl": .data.a' });
  });
});

describe('dryRun', () => {
  /** Runs `writes` (all dry) and proves nothing was stored and no watch event was sent. */
  async function expectNoWrite(url: string, name: string, writes: () => Promise<void>): Promise<void> {
    const before = (await c.get(`${url}/${name}`)).json;
    const watch = collectStream((await c.get(`${url}?watch=true&resourceVersion=${before.metadata.resourceVersion}`)).raw);
    try {
      await writes();
      const after = (await c.get(`${url}/${name}`)).json;
      expect(after).toEqual(before);
      // A real write afterwards is the first event the watch sees.
      const marker = await c.patch(`${url}/${name}`, { metadata: { labels: { marker: 'yes' } } });
      expect(marker.status).toBe(200);
      const [first] = await watch.waitFor(1);
      expect(first.type).toBe('MODIFIED');
      expect(first.object.metadata.resourceVersion).toBe(marker.json.metadata.resourceVersion);
    } finally {
      watch.cancel();
    }
  }

  it('a dry-run patch answers the object as it would be stored: empty metadata maps left out (kubectl diff)', async () => {
    const name = uniqueName('dry');
    expect((await c.post(CM, configMap(name))).status).toBe(201);
    const r = await c.patch(`${CM}/${name}?dryRun=All&fieldManager=kubectl-client-side-apply`, { data: { a: '2' }, metadata: { annotations: {} } }, SMP);
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: '2' });
    expect('annotations' in r.json.metadata).toBe(false);
  });

  it('POST answers the object that would be created and stores nothing', async () => {
    const name = uniqueName('dry');
    const r = await c.post(`${CM}?dryRun=All`, configMap(name));
    expect(r.status).toBe(201);
    expect(r.json.metadata.name).toBe(name);
    expect(r.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.json.metadata.resourceVersion).toBeUndefined();
    expect((await c.get(`${CM}/${name}`)).status).toBe(404);
    const applied = await c.patch(`${CM}/${name}?dryRun=All&fieldManager=a`, JSON.stringify(configMap(name)), APPLY);
    expect(applied.status).toBe(201);
    expect((await c.get(`${CM}/${name}`)).status).toBe(404);
  });

  it('PUT, all four PATCH kinds and DELETE write nothing and send no event', async () => {
    const name = uniqueName('dry');
    const obj = await created(`${DEPLOY}?fieldManager=creator`, twoContainers(name));
    const url = `${DEPLOY}/${name}`;
    await expectNoWrite(DEPLOY, name, async () => {
      const put = await c.put(`${url}?dryRun=All&fieldManager=putter`, { ...obj, spec: { ...obj.spec, replicas: 5 } });
      expect(put.status).toBe(200);
      expect(put.json.spec.replicas).toBe(5);
      expect(put.json.metadata.managedFields.map((e: any) => e.manager)).toContain('putter');
      const merge = await c.patch(`${url}?dryRun=All`, { spec: { replicas: 6 } });
      expect([merge.status, merge.json.spec.replicas]).toEqual([200, 6]);
      const json = await c.patch(`${url}?dryRun=All`, [{ op: 'replace', path: '/spec/replicas', value: 7 }], JSON_PATCH);
      expect([json.status, json.json.spec.replicas]).toEqual([200, 7]);
      const smp = await c.patch(`${url}?dryRun=All`, { spec: { replicas: 8 } }, SMP);
      expect([smp.status, smp.json.spec.replicas]).toEqual([200, 8]);
      const apply = await c.patch(`${url}?dryRun=All&fieldManager=applier&force=true`, JSON.stringify({ ...deployment(name), spec: { ...deployment(name).spec, replicas: 9 } }), APPLY);
      expect([apply.status, apply.json.spec.replicas]).toEqual([200, 9]);
      const del = await c.del(`${url}?dryRun=All`);
      expect(del.status).toBe(200);
      expect(del.json.metadata.name).toBe(name);
      const delBody = await c.del(url, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
      expect(delBody.status).toBe(200);
    });
  });

  it.each([
    ['POST', 'CreateOptions', 'dryRun=Yes', '[]string{"Yes"}'],
    ['PUT', 'UpdateOptions', 'dryRun=Yes', '[]string{"Yes"}'],
    ['PATCH', 'PatchOptions', 'dryRun=Yes', '[]string{"Yes"}'],
    ['APPLY', 'PatchOptions', 'dryRun=All&dryRun=x&fieldManager=a', '[]string{"All", "x"}'],
    ['DELETE', 'DeleteOptions', 'dryRun=Yes', '[]string{"Yes"}'],
    // A bare ?dryRun reads as [""], which ValidateDryRun does not allow either.
    ['POST', 'CreateOptions', 'dryRun', '[]string{""}'],
    ['DELETECOLLECTION', 'DeleteOptions', 'dryRun=Yes', '[]string{"Yes"}'],
  ])('%s with an invalid dryRun (%s, %s) → 422 Invalid on the options kind, nothing written', async (method, kind, query, printed) => {
    const name = uniqueName('baddry');
    const obj = await created(CM, configMap(name));
    const url = method === 'POST' || method === 'DELETECOLLECTION' ? `${CM}?${query}` : `${CM}/${name}?${query}`;
    const body = method === 'PATCH' ? { data: { a: '2' } } : method === 'APPLY' ? JSON.stringify(configMap(name, { a: '3' })) : method.startsWith('DELETE') ? undefined : method === 'PUT' ? obj : configMap(uniqueName('baddry'));
    const headers: Record<string, string> = method === 'PATCH' ? { 'content-type': 'application/merge-patch+json' } : method === 'APPLY' ? { 'content-type': APPLY } : {};
    const r = await c.request(method === 'APPLY' ? 'PATCH' : method === 'DELETECOLLECTION' ? 'DELETE' : method, url, body, headers);
    const message = `Unsupported value: ${printed}: supported values: "All"`;
    expect(r.status).toBe(422);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${kind}.meta.k8s.io "" is invalid: dryRun: ${message}`,
      reason: 'Invalid',
      details: { group: 'meta.k8s.io', kind, causes: [{ reason: 'FieldValueNotSupported', message, field: 'dryRun' }] },
      code: 422,
    });
    expect((await c.get(`${CM}/${name}`)).json).toEqual(obj);
  });
});
