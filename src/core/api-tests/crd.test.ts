// CustomResourceDefinition lifecycle through the whole core: a new resource is served at once
// (discovery, CRUD, list, watch), validated against its structural schema, has status and scale
// subresources and printer columns, and goes away with its objects when the CRD is deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_PATCH, TABLE_V1, collectStream, eventually, failure, startTestServer, statusOf, type TestClient } from '../testing/api-server';

let c: TestClient;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CT = '/apis/stable.example.com/v1/namespaces/default/crontabs';

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [
          { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['cronSpec'],
                properties: {
                  cronSpec: { type: 'string', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                  image: { type: 'string' },
                  replicas: { type: 'integer', minimum: 1, maximum: 10 },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

const cronTab = (name: string, spec: Record<string, unknown> = { cronSpec: '* * * * */5', image: 'img', replicas: 1 }) => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name },
  spec,
});

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('CustomResourceDefinition lifecycle', () => {
  it('before the CRD the resource is not served', async () => {
    expect(failure(await c.get(CT))).toEqual({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
  });

  it('creating the CRD serves the resource at once and marks the CRD Established', async () => {
    const r = await c.post(CRDS, crd);
    expect(r.status).toBe(201);
    const established = await eventually(async () => {
      const got = (await c.get(`${CRDS}/crontabs.stable.example.com`)).json;
      return got.status?.conditions?.find((x: any) => x.type === 'Established' && x.status === 'True') ? got : undefined;
    });
    expect(established.status.acceptedNames.kind).toBe('CronTab');
    expect((await c.get(CT)).status).toBe(200);
  });

  it('appears in discovery', async () => {
    const legacy = (await c.get('/apis/stable.example.com/v1')).json;
    const res = legacy.resources.find((x: any) => x.name === 'crontabs');
    expect(res).toMatchObject({ name: 'crontabs', singularName: 'crontab', namespaced: true, kind: 'CronTab', shortNames: ['ct'] });
    expect(legacy.resources.map((x: any) => x.name)).toEqual(expect.arrayContaining(['crontabs/status', 'crontabs/scale']));
    const agg = (await c.get('/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json;
    expect(agg.items.map((g: any) => g.metadata.name)).toContain('stable.example.com');
    const index = (await c.get('/openapi/v3')).json;
    expect(Object.keys(index.paths)).toContain('apis/stable.example.com/v1');
  });

  it('CRUD, list and watch on the custom kind', async () => {
    const watch = collectStream((await c.get(`${CT}?watch=true`)).raw);
    try {
      const created = await c.post(CT, cronTab('daily'));
      expect(created.status).toBe(201);
      expect(created.json).toMatchObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'daily', namespace: 'default', generation: 1 } });
      const got = await c.get(`${CT}/daily`);
      expect(got.json.spec.cronSpec).toBe('* * * * */5');
      const list = (await c.get(CT)).json;
      expect(list.kind).toBe('CronTabList');
      expect(list.apiVersion).toBe('stable.example.com/v1');
      expect(list.items[0]).toMatchObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTab' });
      const patched = await c.patch(`${CT}/daily`, { spec: { image: 'img:2' } });
      expect(patched.json.spec.image).toBe('img:2');
      expect(patched.json.metadata.generation).toBe(2);
      const jp = await c.patch(`${CT}/daily`, [{ op: 'replace', path: '/spec/replicas', value: 2 }], JSON_PATCH);
      expect(jp.json.spec.replicas).toBe(2);
      const put = await c.put(`${CT}/daily`, { ...jp.json, spec: { ...jp.json.spec, image: 'img:3' } });
      expect(put.status).toBe(200);
      const events = await watch.waitFor(4);
      expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED']);
      expect(events[0].object.kind).toBe('CronTab');
    } finally {
      watch.cancel();
    }
  });

  it('strategic merge patch → 415; update without resourceVersion → 422', async () => {
    await c.post(CT, cronTab('smp'));
    const smp = await c.patch(`${CT}/smp`, { spec: { image: 'x' } }, 'application/strategic-merge-patch+json');
    expect(failure(smp)).toEqual({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    });
    const put = await c.put(`${CT}/smp`, cronTab('smp'));
    expect(failure(put)).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'CronTab.stable.example.com "smp" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    });
  });

  it('metadata of the wrong type fails decoding (ObjectMeta is a Go struct even for custom objects): 400 on a body, 422 on a patch', async () => {
    const body = cronTab('meta-typed');
    const r = await c.post(CT, { ...body, metadata: { name: 'meta-typed', finalizers: 'x' } });
    expect(failure(r)).toEqual({ code: 400, reason: 'BadRequest', message: 'CronTab in version "v1" cannot be handled as a CronTab: json: cannot unmarshal string into Go struct field ObjectMeta.finalizers of type []string' });
    expect((await c.post(CT, body)).status).toBe(201);
    const p = await c.patch(`${CT}/meta-typed`, { metadata: { labels: { a: 1 } } });
    expect(p.status).toBe(422);
    expect(p.json.message).toMatch(/: json: cannot unmarshal number into Go struct field ObjectMeta\.labels of type string$/);
    expect((await c.get(`${CT}/meta-typed`)).json.metadata.labels).toBeUndefined();
  });

  it('structural schema validation → 422 with causes', async () => {
    const r = await c.post(CT, cronTab('bad', { cronSpec: '* * * *', replicas: 15 }));
    const s = statusOf(r);
    expect(s.code).toBe(422);
    expect(s.reason).toBe('Invalid');
    expect(s.details).toMatchObject({ name: 'bad', group: 'stable.example.com', kind: 'CronTab' });
    expect(s.details.causes).toEqual(
      expect.arrayContaining([
        {
          reason: 'FieldValueInvalid',
          message: "Invalid value: \"* * * *\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'",
          field: 'spec.cronSpec',
        },
        { reason: 'FieldValueInvalid', message: 'Invalid value: 15: spec.replicas in body should be less than or equal to 10', field: 'spec.replicas' },
      ]),
    );
    expect(s.message.startsWith('CronTab.stable.example.com "bad" is invalid: [')).toBe(true);
    const missing = await c.post(CT, cronTab('bad2', { image: 'x' }));
    expect(failure(missing)).toEqual({ code: 422, reason: 'Invalid', message: 'CronTab.stable.example.com "bad2" is invalid: spec.cronSpec: Required value' });
  });

  it('status subresource: main writes ignore status, /status writes ignore spec', async () => {
    const created = await c.post(CT, { ...cronTab('st'), status: { replicas: 9 } });
    expect(created.json.status).toBeUndefined();
    const st = await c.patch(`${CT}/st/status`, { status: { replicas: 1, selector: 'app=st' }, spec: { image: 'ignored' } });
    expect(st.status).toBe(200);
    expect(st.json.status).toEqual({ replicas: 1, selector: 'app=st' });
    expect(st.json.spec.image).toBe('img');
    const main = await c.patch(`${CT}/st`, { status: { replicas: 5 } });
    expect(main.json.status).toEqual({ replicas: 1, selector: 'app=st' });
  });

  it('scale subresource reads and writes the paths the CRD names', async () => {
    await c.post(CT, cronTab('sc'));
    await c.patch(`${CT}/sc/status`, { status: { replicas: 1, selector: 'app=sc' } });
    const scale = await c.get(`${CT}/sc/scale`);
    expect(scale.json).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', metadata: { name: 'sc', namespace: 'default' }, spec: { replicas: 1 }, status: { replicas: 1, selector: 'app=sc' } });
    const patched = await c.patch(`${CT}/sc/scale`, { spec: { replicas: 4 } });
    expect(patched.json.spec.replicas).toBe(4);
    expect((await c.get(`${CT}/sc`)).json.spec.replicas).toBe(4);
  });

  it('Table uses the additional printer columns', async () => {
    const r = await c.get(CT, { accept: TABLE_V1 });
    expect(r.json.columnDefinitions.map((d: any) => [d.name, d.type])).toEqual([
      ['Name', 'string'],
      ['Spec', 'string'],
      ['Replicas', 'integer'],
      ['Age', 'date'],
    ]);
    const row = r.json.rows.find((x: any) => x.cells[0] === 'daily');
    expect(row.cells.slice(0, 3)).toEqual(['daily', '* * * * */5', 2]);
    expect(row.cells[3]).toMatch(/^\d+s$/);
  });

  it('deleting the CRD deletes its objects (watchers see DELETED) and stops serving it', async () => {
    const before = (await c.get(CT)).json;
    const watch = collectStream((await c.get(`${CT}?watch=true&resourceVersion=${before.metadata.resourceVersion}`)).raw);
    try {
      const r = await c.del(`${CRDS}/crontabs.stable.example.com`);
      expect(r.status).toBe(200);
      await eventually(async () => ((await c.get(`${CRDS}/crontabs.stable.example.com`)).status === 404 ? true : undefined));
      await eventually(async () => ((await c.get(CT)).status === 404 ? true : undefined));
      const events = await watch.waitFor(before.items.length);
      expect(events.every((e) => e.type === 'DELETED')).toBe(true);
      expect(events.map((e) => e.object.metadata.name).sort()).toEqual(before.items.map((i: any) => i.metadata.name).sort());
      expect(failure(await c.get(`${CT}/daily`))).toEqual({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource' });
      expect((await c.get('/apis/stable.example.com/v1')).status).toBe(404);
    } finally {
      watch.cancel();
    }
  });

  it('re-creating the CRD starts empty', async () => {
    expect((await c.post(CRDS, crd)).status).toBe(201);
    await eventually(async () => ((await c.get(CT)).status === 200 ? true : undefined));
    expect((await c.get(CT)).json.items).toEqual([]);
  });
});
