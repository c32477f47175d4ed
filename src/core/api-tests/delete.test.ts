// DELETE and deletecollection through the whole core: DeleteOptions from body and query,
// preconditions, dry run, finalizers (two-phase deletion seen by a watch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStream, configMap, failure, pod, startTestServer, statusOf, type TestClient } from '../testing/api-server';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const PODS = '/api/v1/namespaces/default/pods';

describe('delete', () => {
  it('a pod: the response is the deleted object, then it is gone', async () => {
    const created = (await c.post(PODS, pod('del-pod'))).json;
    const r = await c.del(`${PODS}/del-pod`, { propagationPolicy: 'Background' });
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('Pod');
    expect(r.json.metadata.uid).toBe(created.metadata.uid);
    expect(failure(await c.get(`${PODS}/del-pod`))).toEqual({ code: 404, reason: 'NotFound', message: 'pods "del-pod" not found' });
  });

  // The issue asks for the deleted object as the response (kubectl accepts it and a Status alike).
  it('a configmap: the response is the deleted object', async () => {
    const created = (await c.post(CM, configMap('del-cm'))).json;
    const r = await c.del(`${CM}/del-cm`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'del-cm', uid: created.metadata.uid } });
    expect((await c.get(`${CM}/del-cm`)).status).toBe(404);
  });

  it('dryRun in the body does not delete', async () => {
    await c.post(CM, configMap('dry-body'));
    const r = await c.del(`${CM}/dry-body`, { propagationPolicy: 'Background', dryRun: ['All'] });
    expect(r.status).toBe(200);
    expect((await c.get(`${CM}/dry-body`)).status).toBe(200);
  });

  it('dryRun in the query does not delete', async () => {
    await c.post(CM, configMap('dry-query'));
    expect((await c.del(`${CM}/dry-query?dryRun=All`)).status).toBe(200);
    expect((await c.get(`${CM}/dry-query`)).status).toBe(200);
  });

  it('propagationPolicy and gracePeriodSeconds in the query are accepted', async () => {
    await c.post(CM, configMap('q-opts'));
    expect((await c.del(`${CM}/q-opts?propagationPolicy=Foreground&gracePeriodSeconds=0`)).status).toBe(200);
    expect((await c.get(`${CM}/q-opts`)).status).toBe(404);
  });

  it('a uid precondition that does not match → 409 Conflict, object kept', async () => {
    const created = (await c.post(CM, configMap('pre-uid'))).json;
    const r = await c.del(`${CM}/pre-uid`, { preconditions: { uid: 'wrong-uid' } });
    expect(statusOf(r)).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ConfigMap "pre-uid": the UID in the precondition (wrong-uid) does not match the UID in record (${created.metadata.uid}). The object might have been deleted and then recreated`,
      details: { name: 'pre-uid', kind: 'ConfigMap' },
    });
    expect((await c.get(`${CM}/pre-uid`)).status).toBe(200);
  });

  it('a resourceVersion precondition that does not match → 409 Conflict', async () => {
    const created = (await c.post(CM, configMap('pre-rv'))).json;
    const r = await c.del(`${CM}/pre-rv`, { preconditions: { resourceVersion: '1' } });
    expect(failure(r)).toEqual({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ConfigMap "pre-rv": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.metadata.resourceVersion}). The object might have been modified`,
    });
  });

  it('matching preconditions delete', async () => {
    const created = (await c.post(CM, configMap('pre-ok'))).json;
    const r = await c.del(`${CM}/pre-ok`, { preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion } });
    expect(r.status).toBe(200);
    expect((await c.get(`${CM}/pre-ok`)).status).toBe(404);
  });

  it('a body that is not DeleteOptions → 400', async () => {
    await c.post(CM, configMap('bad-body'));
    const r = await c.del(`${CM}/bad-body`, '[1]');
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
  });
});

describe('finalizers', () => {
  it('delete marks, removing the last finalizer removes the object; a watch sees MODIFIED then DELETED', async () => {
    const created = (await c.post(CM, configMap('held', { a: '1' }, { finalizers: ['example.com/hold'] }))).json;
    const watch = collectStream((await c.get(`${CM}?watch=true&fieldSelector=metadata.name%3Dheld&resourceVersion=${created.metadata.resourceVersion}`)).raw);
    try {
      const marked = await c.del(`${CM}/held`);
      expect(marked.status).toBe(200);
      expect(marked.json.kind).toBe('ConfigMap');
      expect(marked.json.metadata.deletionTimestamp).toMatch(/Z$/);
      expect(marked.json.metadata.deletionGracePeriodSeconds).toBe(0);
      expect(marked.json.metadata.finalizers).toEqual(['example.com/hold']);
      const still = await c.get(`${CM}/held`);
      expect(still.status).toBe(200);
      expect(still.json.metadata.deletionTimestamp).toBe(marked.json.metadata.deletionTimestamp);

      // Deleting again changes nothing.
      const again = await c.del(`${CM}/held`);
      expect(again.status).toBe(200);
      expect(again.json.metadata.resourceVersion).toBe(still.json.metadata.resourceVersion);

      const released = await c.patch(`${CM}/held`, { metadata: { finalizers: null } });
      expect(released.status).toBe(200);
      expect((await c.get(`${CM}/held`)).status).toBe(404);

      const events = await watch.waitFor(2);
      expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
      expect(events[0].object.metadata.deletionTimestamp).toBeDefined();
      expect(events[1].object.metadata.name).toBe('held');
    } finally {
      watch.cancel();
    }
  });

  it('the answer to a delete that only marks the object is the object as stored, byte for byte', async () => {
    await c.post(CM, { ...configMap('del-order'), metadata: { name: 'del-order', labels: { a: 'b' }, finalizers: ['example.com/hold'] } });
    const r = await c.del(`${CM}/del-order`);
    expect(r.status).toBe(200);
    // Go field order: deletionTimestamp and deletionGracePeriodSeconds come before labels.
    expect(Object.keys(r.json.metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'finalizers', 'managedFields']);
    expect((await c.get(`${CM}/del-order`)).text).toBe(r.text);
    await c.patch(`${CM}/del-order`, { metadata: { finalizers: null } });
  });

  it('the write that takes the last finalizer off answers the object it made at the revision it replaced', async () => {
    await c.post(CM, { ...configMap('del-last'), metadata: { name: 'del-last', finalizers: ['example.com/hold'] } });
    const marked = (await c.del(`${CM}/del-last`)).json;
    const patched = await c.patch(`${CM}/del-last`, { metadata: { finalizers: null } });
    expect(patched.status).toBe(200);
    expect(patched.json.metadata.finalizers).toBeUndefined();
    expect(patched.json.metadata.resourceVersion).toBe(marked.metadata.resourceVersion);
    expect((await c.get(`${CM}/del-last`)).status).toBe(404);
    // An update without a resourceVersion answers the same revision.
    await c.post(CM, { ...configMap('del-last-put'), metadata: { name: 'del-last-put', finalizers: ['example.com/hold'] } });
    const marked2 = (await c.del(`${CM}/del-last-put`)).json;
    const put = await c.put(`${CM}/del-last-put`, { ...marked2, metadata: { ...marked2.metadata, finalizers: [], resourceVersion: undefined } });
    expect(put.status).toBe(200);
    expect(put.json.metadata.resourceVersion).toBe(marked2.metadata.resourceVersion);
  });

  it('removing one of two finalizers keeps the object', async () => {
    await c.post(CM, configMap('held2', {}, { finalizers: ['example.com/a', 'example.com/b'] }));
    await c.del(`${CM}/held2`);
    const r = await c.patch(`${CM}/held2`, { metadata: { finalizers: ['example.com/b'] } });
    expect(r.status).toBe(200);
    expect(r.json.metadata.finalizers).toEqual(['example.com/b']);
    expect((await c.get(`${CM}/held2`)).status).toBe(200);
    await c.patch(`${CM}/held2`, { metadata: { finalizers: [] } });
    expect((await c.get(`${CM}/held2`)).status).toBe(404);
  });

  it('objects without finalizers are removed at once', async () => {
    await c.post(CM, configMap('free'));
    await c.del(`${CM}/free`);
    expect((await c.get(`${CM}/free`)).status).toBe(404);
  });
});

describe('deletecollection', () => {
  it('deletes what the label selector matches and answers the list of deleted items', async () => {
    for (const [name, tier] of [
      ['dc-a', 'x'],
      ['dc-b', 'x'],
      ['dc-c', 'y'],
    ]) {
      await c.post(CM, configMap(name, {}, { labels: { tier } }));
    }
    const r = await c.del(`${CM}?labelSelector=tier%3Dx`);
    expect(r.status).toBe(200);
    expect(r.json.kind).toBe('ConfigMapList');
    expect(r.json.items.map((i: any) => i.metadata.name).sort()).toEqual(['dc-a', 'dc-b']);
    expect((await c.get(`${CM}/dc-a`)).status).toBe(404);
    expect((await c.get(`${CM}/dc-b`)).status).toBe(404);
    expect((await c.get(`${CM}/dc-c`)).status).toBe(200);
  });

  it('with dryRun deletes nothing', async () => {
    await c.post(CM, configMap('dc-dry', {}, { labels: { tier: 'dry' } }));
    const r = await c.del(`${CM}?labelSelector=tier%3Ddry&dryRun=All`);
    expect(r.status).toBe(200);
    expect((await c.get(`${CM}/dc-dry`)).status).toBe(200);
  });
});
