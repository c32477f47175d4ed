// Defaults on read: kube-apiserver applies the storage version's schema defaults to every custom
// object it reads from storage, so objects stored before a default was added read with it
// (get, list, watch, /scale), and nothing is written back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_PATCH, collectStream, eventually, startTestServer, type TestClient } from '../testing/api-server';

let c: TestClient;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
const COUNT = 40; // more than a kept list page's minimum (list-bytes.ts), so page bytes are cached too

function crd(specProps: Record<string, unknown>) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: specProps }, status: { type: 'object', properties: { replicas: { type: 'integer' } } } } } },
        },
      ],
    },
  };
}

const PLAIN = { replicas: { type: 'integer' }, size: { type: 'string' } };
const DEFAULTED = { replicas: { type: 'integer', default: 3 }, size: { type: 'string', default: 'small' } };

async function setSchema(specProps: Record<string, unknown>): Promise<void> {
  const cur = (await c.get(`${CRDS}/widgets.example.com`)).json;
  const next = crd(specProps);
  const r = await c.put(`${CRDS}/widgets.example.com`, { ...next, metadata: { ...next.metadata, resourceVersion: cur.metadata.resourceVersion } });
  expect(r.status).toBe(200);
}

const listSpecs = async () => ((await c.get(WIDGETS)).json.items as any[]).map((i) => i.spec);

beforeAll(async () => {
  c = await startTestServer();
  expect((await c.post(CRDS, crd(PLAIN))).status).toBe(201);
  await eventually(async () => ((await c.get(WIDGETS)).status === 200 ? true : undefined));
  for (let i = 0; i < COUNT; i++) {
    const r = await c.post(WIDGETS, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: `w${i}` }, spec: i === 0 ? { size: 'large' } : {} });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await c.close();
});

describe('custom objects read with the defaults of their storage schema', () => {
  it('objects stored before a default was added read with it, and are not rewritten', async () => {
    const before = (await c.get(`${WIDGETS}/w1`)).json;
    expect(before.spec).toEqual({});
    expect((await listSpecs()).every((s) => s.replicas === undefined)).toBe(true);

    await setSchema(DEFAULTED);
    const after = await eventually(async () => {
      const b = (await c.get(`${WIDGETS}/w1`)).json;
      return b.spec.replicas === 3 ? b : undefined;
    });
    expect(after.spec).toEqual({ replicas: 3, size: 'small' });
    // Read, not written: the revision is the stored one.
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    // A value that was set stays.
    expect((await c.get(`${WIDGETS}/w0`)).json.spec).toEqual({ replicas: 3, size: 'large' });

    const specs = await listSpecs();
    expect(specs).toHaveLength(COUNT);
    expect(specs.every((s) => s.replicas === 3)).toBe(true);
    // Limited pages too.
    const page = (await c.get(`${WIDGETS}?limit=5`)).json;
    expect(page.items.map((i: any) => i.spec.replicas)).toEqual([3, 3, 3, 3, 3]);
  });

  it('/scale reads the defaulted replicas', async () => {
    const scale = (await c.get(`${WIDGETS}/w2/scale`)).json;
    expect(scale.kind).toBe('Scale');
    expect(scale.spec.replicas).toBe(3);
  });

  it('a watch from an earlier revision shows the stored objects with the defaults', async () => {
    const list = (await c.get(`${WIDGETS}?limit=1`)).json;
    const first = (await c.get(`${WIDGETS}/w5`)).json;
    const w = collectStream((await c.get(`${WIDGETS}?watch=true&fieldSelector=metadata.name%3Dw5&resourceVersion=${Number(first.metadata.resourceVersion) - 1}`)).raw);
    const [ev] = await w.waitFor(1);
    w.cancel();
    expect(ev.type).toBe('ADDED');
    expect(ev.object.spec).toEqual({ replicas: 3, size: 'small' });
    expect(list.items).toHaveLength(1);
  });

  it('a patch starts from the defaulted object, and the written object keeps the defaults', async () => {
    const r = await c.patch(`${WIDGETS}/w3`, { metadata: { labels: { touched: 'yes' } } }, MERGE_PATCH);
    expect(r.status).toBe(200);
    expect(r.json.spec).toEqual({ replicas: 3, size: 'small' });
  });

  it('removing the default again: objects never written since read without it', async () => {
    await setSchema(PLAIN);
    await eventually(async () => ((await c.get(`${WIDGETS}/w1`)).json.spec.replicas === undefined ? true : undefined));
    expect((await c.get(`${WIDGETS}/w1`)).json.spec).toEqual({});
    // w3 was written while the default applied, so it was stored with it.
    expect((await c.get(`${WIDGETS}/w3`)).json.spec).toEqual({ replicas: 3, size: 'small' });
    const specs = await listSpecs();
    expect(specs.filter((s) => s.replicas === 3)).toHaveLength(1);
  });
});
