// Server-side apply through the whole core (issue 5 API surface): create/update via apply,
// ownership in metadata.managedFields, conflicts and their Status, force, removal of fields an
// applier stops applying, no-op applies, resets and the before-first-apply owner, the Update
// entry cap, and apply on /status and /scale.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { configMap, deployment, startTestServer, statusOf, uniqueName, type Reply, type TestClient } from '../testing/api-server';

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
afterEach(() => {
  vi.useRealTimers();
});

function apply(url: string, body: unknown, manager: string, extra = ''): Promise<Reply> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return c.patch(`${url}?fieldManager=${manager}${extra}`, text, APPLY);
}

/** `{manager: fieldsV1}` of every entry, plus the operation and subresource, for compact asserts. */
function owners(obj: any): Record<string, { operation: string; subresource?: string; fields: unknown }> {
  const out: Record<string, { operation: string; subresource?: string; fields: unknown }> = {};
  for (const e of obj.metadata.managedFields ?? []) {
    out[e.manager] = { operation: e.operation, fields: e.fieldsV1, ...(e.subresource ? { subresource: e.subresource } : {}) };
  }
  return out;
}

describe('apply creates and updates', () => {
  it('creates a missing object (201) with an Apply entry, then updates it (200)', async () => {
    const name = uniqueName('ssa');
    const created = await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    expect(created.status).toBe(201);
    expect(created.json.data).toEqual({ a: '1' });
    const [entry] = created.json.metadata.managedFields;
    expect(Object.keys(entry)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    expect(entry).toMatchObject({ manager: 'alice', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } });
    expect(entry.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const updated = await apply(`${CM}/${name}`, configMap(name, { a: '2', b: '3' }), 'alice');
    expect(updated.status).toBe(200);
    expect(updated.json.data).toEqual({ a: '2', b: '3' });
    expect(Number(updated.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.json.metadata.resourceVersion));
    expect(owners(updated.json)).toEqual({ alice: { operation: 'Apply', fields: { 'f:data': { 'f:a': {}, 'f:b': {} } } } });
  });

  it('an apply that would create the object with a uid of its own: 409 uid mismatch, nothing created (dry run too)', async () => {
    const name = uniqueName('uid');
    const body = { ...configMap(name, { a: '1' }), metadata: { name, uid: '6f1c9a52-0000-4000-8000-000000000001' } };
    for (const extra of ['', '&dryRun=All']) {
      const r = await apply(`${CM}/${name}`, body, 'alice', extra);
      expect(r.status).toBe(409);
      expect(r.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `Operation cannot be fulfilled on configmaps "${name}": uid mismatch: the provided object specified uid 6f1c9a52-0000-4000-8000-000000000001, and no existing object was found`,
        reason: 'Conflict',
        details: { name, kind: 'configmaps' },
        code: 409,
      });
    }
    expect((await c.get(`${CM}/${name}`)).status).toBe(404);
    // An existing object's own uid in the applied configuration is fine.
    const created = await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    expect(created.status).toBe(201);
    const again = await apply(`${CM}/${name}`, { ...configMap(name, { a: '2' }), metadata: { name, uid: created.json.metadata.uid } }, 'alice');
    expect([again.status, again.json.data]).toEqual([200, { a: '2' }]);
  });

  it('accepts a YAML body and reads it as YAML 1.1 (unquoted yes is a boolean)', async () => {
    const name = uniqueName('yaml');
    const yaml = ['apiVersion: apps/v1', 'kind: Deployment', `metadata: {name: ${name}}`, 'spec:', '  paused: yes', '  selector: {matchLabels: {app: yml}}',
      '  template:', '    metadata: {labels: {app: yml}}', '    spec: {containers: [{name: c, image: nginx}]}', ''].join('\n');
    const r = await apply(`${DEPLOY}/${name}`, yaml, 'yamler');
    expect(r.status).toBe(201);
    expect(r.json.spec.paused).toBe(true);
    const cm = await apply(`${CM}/${name}`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  flag: "yes"\n`, 'yamler');
    expect(cm.status).toBe(201);
    expect(cm.json.data).toEqual({ flag: 'yes' });
  });

  it('a field the applier stops applying is removed unless another manager owns it', async () => {
    const name = uniqueName('drop');
    await apply(`${CM}/${name}`, configMap(name, { a: '1', b: '2', c: '3' }), 'alice');
    await apply(`${CM}/${name}`, configMap(name, { c: '3' }), 'bob');
    const r = await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    expect(r.status).toBe(200);
    // b was only alice's: gone; c is still bob's.
    expect(r.json.data).toEqual({ a: '1', c: '3' });
    expect(owners(r.json).alice.fields).toEqual({ 'f:data': { 'f:a': {} } });
    expect(owners(r.json).bob.fields).toEqual({ 'f:data': { 'f:c': {} } });
  });

  it('a list-map item the applier stops applying is removed (containers keyed by name)', async () => {
    const name = uniqueName('items');
    const two = deployment(name);
    two.spec.template.spec.containers.push({ name: 'side', image: 'busybox' });
    await apply(`${DEPLOY}/${name}`, two, 'deployer');
    const r = await apply(`${DEPLOY}/${name}`, deployment(name), 'deployer');
    expect(r.status).toBe(200);
    expect(r.json.spec.template.spec.containers.map((x: any) => x.name)).toEqual(['c']);
    const fields = owners(r.json).deployer.fields as any;
    expect(Object.keys(fields['f:spec']['f:template']['f:spec']['f:containers'])).toEqual(['k:{"name":"c"}']);
  });

  it('applying the same value another manager owns shares ownership without a conflict', async () => {
    const name = uniqueName('share');
    await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    const r = await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'bob');
    expect(r.status).toBe(200);
    expect(owners(r.json)).toEqual({
      alice: { operation: 'Apply', fields: { 'f:data': { 'f:a': {} } } },
      bob: { operation: 'Apply', fields: { 'f:data': { 'f:a': {} } } },
    });
  });

  it('a no-op apply changes nothing: same resourceVersion, same time', async () => {
    const name = uniqueName('noop');
    const first = await apply(`${CM}/${name}`, configMap(name), 'alice');
    const again = await apply(`${CM}/${name}`, configMap(name), 'alice');
    expect(again.status).toBe(200);
    expect(again.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    expect(again.json.metadata.managedFields).toEqual(first.json.metadata.managedFields);
    expect((await c.get(`${CM}/${name}`)).json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
  });
});

describe('conflicts', () => {
  it('another applier changing an owned field: 409 Conflict with FieldManagerConflict causes, nothing written', async () => {
    const name = uniqueName('conf');
    const first = await apply(`${DEPLOY}/${name}`, deployment(name, 1), 'kubectl');
    const r = await apply(`${DEPLOY}/${name}`, deployment(name, 3), 'other');
    expect(r.status).toBe(409);
    expect(statusOf(r)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' }] },
      code: 409,
    });
    const live = (await c.get(`${DEPLOY}/${name}`)).json;
    expect(live.spec.replicas).toBe(1);
    expect(live.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
  });

  it('force=true takes the field: the other manager loses it', async () => {
    const name = uniqueName('force');
    await apply(`${CM}/${name}`, configMap(name, { a: '1', b: '2' }), 'alice');
    const r = await apply(`${CM}/${name}`, configMap(name, { a: 'mine' }), 'bob', '&force=true');
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ a: 'mine', b: '2' });
    expect(owners(r.json)).toEqual({
      alice: { operation: 'Apply', fields: { 'f:data': { 'f:b': {} } } },
      bob: { operation: 'Apply', fields: { 'f:data': { 'f:a': {} } } },
    });
  });

  it('Update owners are printed with their apiVersion; several conflicts are listed per manager', async () => {
    const name = uniqueName('upd');
    await c.post(`${DEPLOY}?fieldManager=editor`, deployment(name, 1));
    const one = await apply(`${DEPLOY}/${name}`, deployment(name, 4), 'applier');
    expect(one.status).toBe(409);
    expect(statusOf(one).message).toBe('Apply failed with 1 conflict: conflict with "editor" using apps/v1: .spec.replicas');
    expect(statusOf(one).details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "editor" using apps/v1', field: '.spec.replicas' }]);

    const cmName = uniqueName('upd');
    await c.post(`${CM}?fieldManager=editor`, configMap(cmName, { a: '1', b: '2' }));
    const two = await apply(`${CM}/${cmName}`, configMap(cmName, { a: 'x', b: 'y' }), 'applier');
    expect(two.status).toBe(409);
    expect(statusOf(two).message).toBe('Apply failed with 2 conflicts: conflicts with "editor" using v1:\n- .data.a\n- .data.b');
    expect(statusOf(two).details.causes.map((x: any) => x.field)).toEqual(['.data.a', '.data.b']);
  });

  it('subresource owners are printed with their subresource', async () => {
    const name = uniqueName('subown');
    await c.post(DEPLOY, deployment(name));
    const status = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, status: { replicas: 2 } };
    const owned = await apply(`${DEPLOY}/${name}/status`, status, 'controller');
    expect(owned.status).toBe(200);
    const r = await apply(`${DEPLOY}/${name}/status`, { ...status, status: { replicas: 5 } }, 'intruder');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "controller" with subresource "status": .status.replicas');
    expect(statusOf(r).details.causes[0].message).toBe('conflict with "controller" with subresource "status"');
  });
});

describe('managedFields bookkeeping', () => {
  it('an empty labels or annotations map is not a field anyone owns (omitempty), and does not block an apply', async () => {
    const name = uniqueName('empty-meta');
    const made = await c.post(`${CM}?fieldManager=maker`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: {}, annotations: {}, finalizers: [] }, data: {} });
    expect(made.status).toBe(201);
    expect(made.json.metadata.managedFields).toBeUndefined();
    const patched = await c.patch(`${CM}/${name}?fieldManager=patcher`, { metadata: { labels: {} } });
    expect(patched.json.metadata.managedFields).toBeUndefined();
    const applied = await apply(`${CM}/${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { a: 'b' } } }, 'alice');
    expect(applied.status).toBe(200);
    expect(applied.json.metadata.managedFields.map((e: { manager: string }) => e.manager)).toEqual(['alice']);
  });

  it('a write the field manager cannot type is stored without managedFields (kube: UpdateNoErrors)', async () => {
    // ServiceAccount validation lets a secret reference without its name through; the list is
    // keyed by name, so the field manager cannot track it and records nothing.
    const SA = '/api/v1/namespaces/default/serviceaccounts';
    const created = await c.post(SA, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'untyped' }, secrets: [{}] });
    expect(created.status).toBe(201);
    expect(created.json.secrets).toEqual([{}]);
    expect(created.json.metadata.managedFields).toBeUndefined();
    const updated = await c.patch(`${SA}/untyped`, { metadata: { labels: { a: 'b' } } });
    expect(updated.status).toBe(200);
    expect(updated.json.metadata.managedFields).toBeUndefined();
  });

  it('status applied through /status is owned with subresource status; the main resource ignores status', async () => {
    const name = uniqueName('st');
    await apply(`${DEPLOY}/${name}`, deployment(name), 'deployer');
    const st = await apply(`${DEPLOY}/${name}/status`, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name }, status: { replicas: 1 }, spec: { replicas: 9 } }, 'ctrl');
    expect(st.status).toBe(200);
    expect(st.json.status.replicas).toBe(1);
    expect(st.json.spec.replicas).toBe(1);
    expect(owners(st.json).ctrl).toEqual({ operation: 'Apply', subresource: 'status', fields: { 'f:status': { 'f:replicas': {} } } });
    const main = await apply(`${DEPLOY}/${name}`, { ...deployment(name), status: { replicas: 7 } }, 'deployer');
    expect(main.json.status.replicas).toBe(1);
    expect(JSON.stringify(owners(main.json).deployer.fields)).not.toContain('f:status');
  });

  it('apply on /scale answers a Scale and records an entry with subresource scale', async () => {
    const name = uniqueName('scale');
    await apply(`${DEPLOY}/${name}`, deployment(name, 1), 'deployer');
    const r = await apply(`${DEPLOY}/${name}/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name }, spec: { replicas: 4 } }, 'scaler', '&force=true');
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('Scale');
    expect(r.json.spec.replicas).toBe(4);
    const live = (await c.get(`${DEPLOY}/${name}`)).json;
    expect(live.spec.replicas).toBe(4);
    const scaler = live.metadata.managedFields.find((e: any) => e.manager === 'scaler');
    expect(scaler).toMatchObject({ operation: 'Apply', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(JSON.stringify(owners(live).deployer.fields)).not.toContain('f:replicas');
  });

  it('a reset to [{}] clears managedFields; the next apply first hands existing fields to before-first-apply', async () => {
    const name = uniqueName('reset');
    await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    const reset = await c.patch(`${CM}/${name}?fieldManager=resetter`, { metadata: { managedFields: [{}] } });
    expect(reset.status).toBe(200);
    expect(reset.json.metadata.managedFields).toBeUndefined();
    const r = await apply(`${CM}/${name}`, configMap(name, { a: '2' }), 'alice');
    expect(r.status).toBe(409);
    expect(statusOf(r).message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a');
    const ok = await apply(`${CM}/${name}`, configMap(name, { b: '2' }), 'alice');
    expect(ok.status).toBe(200);
    expect(owners(ok.json)).toEqual({
      'before-first-apply': { operation: 'Update', fields: { 'f:data': { '.': {}, 'f:a': {} } } },
      alice: { operation: 'Apply', fields: { 'f:data': { 'f:b': {} } } },
    });
  });

  it('after a reset with [] updates are not tracked (kube: skipNonAppliedManager) until the next apply; omitting the field keeps them', async () => {
    const name = uniqueName('reset2');
    await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    const keep = await c.patch(`${CM}/${name}?fieldManager=bob`, { data: { b: '2' } });
    expect(Object.keys(owners(keep.json)).sort()).toEqual(['alice', 'bob']);
    const r = await c.patch(`${CM}/${name}?fieldManager=carol`, { metadata: { managedFields: [] }, data: { c: '3' } });
    expect(r.status).toBe(200);
    expect(r.json.metadata.managedFields).toBeUndefined();
    for (const write of [
      () => c.patch(`${CM}/${name}?fieldManager=dave`, { data: { d: '4' } }),
      async () => c.put(`${CM}/${name}?fieldManager=erin`, { ...(await c.get(`${CM}/${name}`)).json, data: { a: '1', b: '2', c: '3', d: '5' } }),
    ]) {
      const w = await write();
      expect(w.status).toBe(200);
      expect(w.json.metadata.managedFields).toBeUndefined();
    }
    const applied = await apply(`${CM}/${name}`, configMap(name, { e: '6' }), 'alice');
    expect(applied.status).toBe(200);
    expect(owners(applied.json)).toEqual({
      alice: { operation: 'Apply', fields: { 'f:data': { 'f:e': {} } } },
      'before-first-apply': { operation: 'Update', fields: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {}, 'f:d': {} } } },
    });
  });

  it('an applier left owning nothing, alone, leaves the object untracked: updates record nothing, then before-first-apply', async () => {
    const name = uniqueName('untracked');
    await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    const emptied = await apply(`${CM}/${name}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }, 'alice');
    expect(emptied.status).toBe(200);
    expect(emptied.json.metadata.managedFields).toBeUndefined();
    const patched = await c.patch(`${CM}/${name}?fieldManager=bob`, { data: { b: '2' } });
    expect([patched.status, patched.json.metadata.managedFields]).toEqual([200, undefined]);
    const conflict = await apply(`${CM}/${name}`, configMap(name, { b: '3' }), 'carol');
    expect(statusOf(conflict).message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.b');
  });

  it('Update entries are capped at 10; the oldest fold into ancient-changes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const name = uniqueName('cap');
    let t = Date.parse('2030-01-01T00:00:00Z');
    vi.setSystemTime(t);
    await c.post(`${CM}?fieldManager=m0`, configMap(name, { k0: 'v' }));
    for (let i = 1; i <= 11; i++) {
      vi.setSystemTime((t += 1000));
      const r = await c.patch(`${CM}/${name}?fieldManager=m${i}`, { data: { [`k${i}`]: 'v' } });
      expect(r.status).toBe(200);
    }
    const entries = (await c.get(`${CM}/${name}`)).json.metadata.managedFields;
    expect(entries.filter((e: any) => e.operation === 'Update')).toHaveLength(10);
    const byName = owners({ metadata: { managedFields: entries } });
    expect(Object.keys(byName)).toContain('ancient-changes');
    expect(Object.keys(byName)).not.toContain('m0');
    expect(Object.keys(byName)).not.toContain('m1');
    expect(Object.keys(byName)).not.toContain('m2');
    const ancient = JSON.stringify(byName['ancient-changes'].fields);
    for (const k of ['k0', 'k1', 'k2']) expect(ancient).toContain(`"f:${k}"`);
    expect(byName.m11.fields).toEqual({ 'f:data': { 'f:k11': {} } });
  });

  it('a manager left owning nothing disappears', async () => {
    const name = uniqueName('gone');
    await apply(`${CM}/${name}`, configMap(name, { a: '1' }), 'alice');
    const r = await apply(`${CM}/${name}`, configMap(name, { a: '2' }), 'bob', '&force=true');
    expect(Object.keys(owners(r.json))).toEqual(['bob']);
  });
});

describe('custom resources typed by their CRD schema', () => {
  const GADGETS = '/apis/ssa.example.com/v1/namespaces/default/gadgets';
  const gadget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'ssa.example.com/v1', kind: 'Gadget', metadata: { name }, spec });

  beforeAll(async () => {
    const list = (extra: Record<string, unknown>, items: Record<string, unknown> = { type: 'string' }) => ({ type: 'array', items, ...extra });
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.ssa.example.com' },
      spec: {
        group: 'ssa.example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
        versions: [{
          name: 'v1', served: true, storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
            ports: list({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }, { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } }),
            tags: list({ 'x-kubernetes-list-type': 'set' }),
            args: list({ 'x-kubernetes-list-type': 'atomic' }),
            plain: list({}),
          } } } } },
        }],
      },
    };
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  });

  it('list-type map and set items from two appliers merge; atomic and unannotated lists conflict as a whole', async () => {
    const name = uniqueName('gadget');
    expect((await apply(`${GADGETS}/${name}`, gadget(name, { ports: [{ name: 'a', port: 1 }], tags: ['x'], args: ['1', '2'], plain: ['p'] }), 'alice')).status).toBe(201);
    const merged = await apply(`${GADGETS}/${name}`, gadget(name, { ports: [{ name: 'b', port: 2 }], tags: ['y'] }), 'bob');
    expect(merged.status).toBe(200);
    expect(merged.json.spec).toEqual({ ports: [{ name: 'a', port: 1 }, { name: 'b', port: 2 }], tags: ['x', 'y'], args: ['1', '2'], plain: ['p'] });
    expect(owners(merged.json).bob.fields).toEqual({ 'f:spec': { 'f:ports': { 'k:{"name":"b"}': { '.': {}, 'f:name': {}, 'f:port': {} } }, 'f:tags': { 'v:"y"': {} } } });

    const atomic = await apply(`${GADGETS}/${name}`, gadget(name, { args: ['3'], plain: ['q'] }), 'bob');
    expect(atomic.status).toBe(409);
    expect(statusOf(atomic).message).toBe('Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.args\n- .spec.plain');
    const item = await apply(`${GADGETS}/${name}`, gadget(name, { ports: [{ name: 'a', port: 9 }] }), 'bob');
    expect(statusOf(item).message).toBe('Apply failed with 1 conflict: conflict with "alice": .spec.ports[name="a"].port');
  });

  it('map and set items an applier stops applying are removed; the others stay', async () => {
    const name = uniqueName('gadget');
    await apply(`${GADGETS}/${name}`, gadget(name, { ports: [{ name: 'a', port: 1 }, { name: 'c', port: 3 }], tags: ['x', 'z'] }), 'alice');
    await apply(`${GADGETS}/${name}`, gadget(name, { ports: [{ name: 'b', port: 2 }], tags: ['y'] }), 'bob');
    const r = await apply(`${GADGETS}/${name}`, gadget(name, { ports: [{ name: 'c', port: 3 }], tags: ['z'] }), 'alice');
    expect(r.status).toBe(200);
    expect(r.json.spec).toEqual({ ports: [{ name: 'c', port: 3 }, { name: 'b', port: 2 }], tags: ['z', 'y'] });
  });
});
