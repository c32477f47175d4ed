// Garbage collection through the API: cascading deletion by ownerReferences (background,
// foreground with blockOwnerDeletion, orphan), the finalizers a DELETE's propagation policy sets,
// and the owners that count as absent or cannot be resolved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, eventually, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

let c: TestClient;
const NS = '/api/v1/namespaces/default';
const CM = `${NS}/configmaps`;

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

async function makeOwner(name = uniqueName('owner')): Promise<{ name: string; uid: string }> {
  const r = await c.post(CM, configMap(name));
  expect(r.status).toBe(201);
  return { name, uid: r.json.metadata.uid };
}

function ref(owner: { name: string; uid: string }, extra: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', name: owner.name, uid: owner.uid, ...extra };
}

async function makeDependent(refs: unknown[], meta: Record<string, unknown> = {}, base = CM): Promise<string> {
  const name = uniqueName('dep');
  const r = await c.post(base, configMap(name, { a: '1' }, { ownerReferences: refs, ...meta }));
  expect(r.status).toBe(201);
  return name;
}

const gone = (url: string) => eventually(async () => ((await c.get(url)).status === 404 ? true : undefined));

/** A moment for the collector to act on what it should leave alone. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('background deletion (the default)', () => {
  it('deleting an owner deletes its dependents, and theirs', async () => {
    const owner = await makeOwner();
    const dep = await makeDependent([ref(owner)]);
    const depUid = (await c.get(`${CM}/${dep}`)).json.metadata.uid;
    const grandchild = await makeDependent([ref({ name: dep, uid: depUid })]);
    const r = await c.del(`${CM}/${owner.name}`);
    expect(r.status).toBe(200);
    await gone(`${CM}/${dep}`);
    await gone(`${CM}/${grandchild}`);
  });

  it('an object with another live owner is kept, and loses the reference to the deleted one', async () => {
    const a = await makeOwner();
    const b = await makeOwner();
    const dep = await makeDependent([ref(a), ref(b)]);
    expect((await c.del(`${CM}/${a.name}`)).status).toBe(200);
    const refs = await eventually(async () => {
      const got = (await c.get(`${CM}/${dep}`)).json.metadata.ownerReferences;
      return got.length === 1 ? got : undefined;
    });
    expect(refs).toEqual([ref(b)]);
  });

  it('an object created with an owner that does not exist is collected', async () => {
    const dep = await makeDependent([ref({ name: 'never-there', uid: '00000000-0000-4000-8000-00000000dead' })]);
    await gone(`${CM}/${dep}`);
  });

  it('an owner of the same name but another uid is absent: the dependent goes', async () => {
    const owner = await makeOwner();
    const dep = await makeDependent([ref({ name: owner.name, uid: '00000000-0000-4000-8000-00000000beef' })]);
    await gone(`${CM}/${dep}`);
  });

  it('an owner found alive is checked again after its delete: a dependent created later is collected', async () => {
    const owner = await makeOwner();
    const first = await makeDependent([ref(owner)]);
    await settle();
    // The collector knows the owner is alive now: a second dependent of it is kept without a check.
    const second = await makeDependent([ref(owner)]);
    await settle();
    expect((await c.get(`${CM}/${second}`)).status).toBe(200);
    expect((await c.del(`${CM}/${owner.name}`)).status).toBe(200);
    await gone(`${CM}/${first}`);
    await gone(`${CM}/${second}`);
    const late = await makeDependent([ref(owner)]);
    await gone(`${CM}/${late}`);
  });

  it('a namespaced owner is looked up in the dependent namespace: a reference across namespaces is absent', async () => {
    const ns = uniqueName('gc-ns');
    expect((await c.post('/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    const owner = await makeOwner();
    const dep = await makeDependent([ref(owner)], {}, `/api/v1/namespaces/${ns}/configmaps`);
    await gone(`/api/v1/namespaces/${ns}/configmaps/${dep}`);
    expect((await c.get(`${CM}/${owner.name}`)).status).toBe(200);
  });

  it('a reference that cannot be resolved leaves the object alone', async () => {
    const unknownKind = await makeDependent([{ apiVersion: 'example.com/v1', kind: 'Nothing', name: 'x', uid: '00000000-0000-4000-8000-000000000001' }]);
    const owner = await makeOwner();
    // A cluster-scoped object cannot be owned by a namespaced kind.
    const ns = uniqueName('owned-ns');
    expect((await c.post('/api/v1/namespaces', { metadata: { name: ns, ownerReferences: [ref(owner)] } })).status).toBe(201);
    expect((await c.del(`${CM}/${owner.name}`)).status).toBe(200);
    await settle();
    expect((await c.get(`${CM}/${unknownKind}`)).status).toBe(200);
    expect((await c.get(`/api/v1/namespaces/${ns}`)).status).toBe(200);
  });
});

describe('foreground deletion', () => {
  it('the owner is marked with foregroundDeletion and goes after the dependents that block it', async () => {
    const owner = await makeOwner();
    // The blocking dependent holds a finalizer of its own, so the owner must wait for it.
    const blocker = await makeDependent([ref(owner, { blockOwnerDeletion: true })], { finalizers: ['example.com/hold'] });
    const other = await makeDependent([ref(owner)]);
    const r = await c.del(`${CM}/${owner.name}`, { propagationPolicy: 'Foreground' });
    expect(r.status).toBe(200);
    expect(r.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(r.json.metadata.deletionTimestamp).toBeDefined();

    await gone(`${CM}/${other}`);
    const held = await eventually(async () => {
      const b = (await c.get(`${CM}/${blocker}`)).json;
      return b.metadata.deletionTimestamp ? b : undefined;
    });
    await settle();
    expect((await c.get(`${CM}/${owner.name}`)).json.metadata.finalizers).toEqual(['foregroundDeletion']);

    // The dependent's own finalizer is removed: it goes, then the owner does.
    expect((await c.put(`${CM}/${blocker}`, { ...held, metadata: { ...held.metadata, finalizers: [] } })).status).toBe(200);
    await gone(`${CM}/${blocker}`);
    await gone(`${CM}/${owner.name}`);
  });

  it('a dependent created while its known owner waits in the foreground is collected', async () => {
    const owner = await makeOwner();
    const blocker = await makeDependent([ref(owner, { blockOwnerDeletion: true })], { finalizers: ['example.com/hold'] });
    await settle();
    expect((await c.del(`${CM}/${owner.name}`, { propagationPolicy: 'Foreground' })).status).toBe(200);
    const late = await makeDependent([ref(owner)]);
    await gone(`${CM}/${late}`);
    const held = await eventually(async () => {
      const b = (await c.get(`${CM}/${blocker}`)).json;
      return b.metadata.deletionTimestamp ? b : undefined;
    });
    expect((await c.put(`${CM}/${blocker}`, { ...held, metadata: { ...held.metadata, finalizers: [] } })).status).toBe(200);
    await gone(`${CM}/${owner.name}`);
  });

  it('an owner without dependents goes at once after the mark', async () => {
    const owner = await makeOwner();
    const r = await c.del(`${CM}/${owner.name}?propagationPolicy=Foreground`);
    expect(r.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    await gone(`${CM}/${owner.name}`);
  });

  it('a chain of blocking dependents is deleted from the bottom up', async () => {
    const top = await makeOwner();
    const mid = await makeDependent([ref(top, { blockOwnerDeletion: true })]);
    const midUid = (await c.get(`${CM}/${mid}`)).json.metadata.uid;
    const leaf = await makeDependent([ref({ name: mid, uid: midUid }, { blockOwnerDeletion: true })]);
    expect((await c.del(`${CM}/${top.name}`, { propagationPolicy: 'Foreground' })).status).toBe(200);
    await gone(`${CM}/${leaf}`);
    await gone(`${CM}/${mid}`);
    await gone(`${CM}/${top.name}`);
  });
});

describe('orphaning', () => {
  it('propagationPolicy=Orphan: the dependents stay, without the reference, and then the owner goes', async () => {
    const owner = await makeOwner();
    const keep = await makeOwner();
    const dep = await makeDependent([ref(owner), ref(keep)]);
    const lone = await makeDependent([ref(owner)]);
    const r = await c.del(`${CM}/${owner.name}`, { propagationPolicy: 'Orphan' });
    expect(r.json.metadata.finalizers).toEqual(['orphan']);
    await gone(`${CM}/${owner.name}`);
    expect((await c.get(`${CM}/${dep}`)).json.metadata.ownerReferences).toEqual([ref(keep)]);
    const loneNow = (await c.get(`${CM}/${lone}`)).json;
    expect(loneNow.metadata.ownerReferences).toBeUndefined();
  });

  it('orphanDependents=true (the older option) orphans too', async () => {
    const owner = await makeOwner();
    const dep = await makeDependent([ref(owner)]);
    const r = await c.del(`${CM}/${owner.name}`, { orphanDependents: true });
    expect(r.json.metadata.finalizers).toEqual(['orphan']);
    await gone(`${CM}/${owner.name}`);
    expect((await c.get(`${CM}/${dep}`)).status).toBe(200);
  });

  it('batch/v1 Jobs orphan by default; an explicit Background does not', async () => {
    const JOBS = '/apis/batch/v1/namespaces/default/jobs';
    const job = (name: string) => ({
      metadata: { name },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    const j1 = uniqueName('job');
    const created = await c.post(JOBS, job(j1));
    expect(created.status).toBe(201);
    const pod = uniqueName('pod');
    const podBody = { metadata: { name: pod, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: j1, uid: created.json.metadata.uid, controller: true, blockOwnerDeletion: true }] }, spec: { containers: [{ name: 'c', image: 'busybox' }] } };
    expect((await c.post(`${NS}/pods`, podBody)).status).toBe(201);
    const r = await c.del(`${JOBS}/${j1}`);
    expect(r.json.metadata.finalizers).toEqual(['orphan']);
    await gone(`${JOBS}/${j1}`);
    const orphaned = (await c.get(`${NS}/pods/${pod}`)).json;
    expect(orphaned.metadata.ownerReferences).toBeUndefined();

    const j2 = uniqueName('job');
    expect((await c.post(JOBS, job(j2))).status).toBe(201);
    const r2 = await c.del(`${JOBS}/${j2}`, { propagationPolicy: 'Background' });
    expect(r2.json.kind).toBe('Job');
    expect(r2.json.metadata.finalizers).toBeUndefined();
    expect((await c.get(`${JOBS}/${j2}`)).status).toBe(404);
  });

  it('deleting a terminating object again with another policy changes its garbage-collection finalizer', async () => {
    const owner = await makeOwner();
    await c.patch(`${CM}/${owner.name}`, { metadata: { finalizers: ['example.com/hold'] } });
    const first = await c.del(`${CM}/${owner.name}`);
    expect(first.json.metadata.finalizers).toEqual(['example.com/hold']);
    const again = await c.del(`${CM}/${owner.name}`, { propagationPolicy: 'Orphan' });
    expect(again.json.metadata.finalizers).toEqual(['example.com/hold', 'orphan']);
    expect(again.json.metadata.deletionTimestamp).toBe(first.json.metadata.deletionTimestamp);
    // The collector drops its own finalizer; the other one keeps the object.
    const after = await eventually(async () => {
      const o = (await c.get(`${CM}/${owner.name}`)).json;
      return o.metadata.finalizers.length === 1 ? o : undefined;
    });
    expect(after.metadata.finalizers).toEqual(['example.com/hold']);
  });
});
