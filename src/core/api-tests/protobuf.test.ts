// Protobuf on the wire through the whole core: a client that accepts only
// `application/vnd.kubernetes.protobuf` gets protobuf objects, lists and Status errors; protobuf
// request bodies (including the exact bytes kubectl and helm sent, from ../shared/kubectl-wire)
// are decoded; custom resources answer 406/415; a broken envelope is a 400; DeleteOptions ride in
// protobuf; watches stream length-prefixed WatchEvent frames; Tables stay JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStream, type ApiResponse } from '../meta/types';
import { decodeProtobufObject, encodeProtobufObject } from '../codec/protobuf';
import { TABLE_V1, configMap, deployment, eventually, startTestServer, uniqueName, type TestClient } from '../testing/api-server';

const PB = 'application/vnd.kubernetes.protobuf';
/** What kubectl's and helm's typed clients send. */
const PB_OR_JSON = `${PB},application/json`;
const CM = '/api/v1/namespaces/default/configmaps';
const SECRETS = '/api/v1/namespaces/default/secrets';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments';

// Request bodies recorded from kubectl 1.34 (../shared/kubectl-wire/logs/04 and 10).
const KUBECTL_CREATE_NAMESPACE_X = '6b3873000a0f0a02763112094e616d65737061636512190a110a017812001a0022002a0032003800420012001a020a001a002200';
const KUBECTL_CREATE_CONFIGMAP_C1 = '6b3873000a0f0a0276311209436f6e6669674d6170121c0a120a02633112001a0022002a0032003800420012060a01611201621a002200';
const KUBECTL_CREATE_SECRET_S1 = '6b3873000a0c0a0276311206536563726574121e0a120a02733112001a0022002a0032003800420012060a01611201621a001a002200';
const HELM_DELETE_OPTIONS = '6b3873000a130a027631120d44656c6574654f7074696f6e7312001a002200';

function hex(s: string): Uint8Array {
  return Uint8Array.from(s.match(/../g)!.map((b) => parseInt(b, 16)));
}

function bytesOf(res: ApiResponse): Uint8Array {
  if (res.body instanceof Uint8Array) return res.body;
  if (typeof res.body === 'string') return new TextEncoder().encode(res.body);
  throw new Error(`expected a byte body, got ${res.body === undefined ? 'none' : 'a stream'}`);
}

/** A protobuf answer: checks the Content-Type and the `k8s\0` prefix, returns the decoded object. */
function pbBody(res: ApiResponse): any {
  expect(res.headers['Content-Type']).toBe(PB);
  const body = bytesOf(res);
  expect([...body.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  return decodeProtobufObject(body).object;
}

/** The Status of a failed request, whichever of protobuf or JSON it came in. */
function statusBody(res: ApiResponse): any {
  const body = bytesOf(res);
  return res.headers['Content-Type'] === PB ? decodeProtobufObject(body).object : JSON.parse(new TextDecoder().decode(body));
}

let c: TestClient;

async function send(method: string, url: string, body: Uint8Array | undefined, headers: Record<string, string>): Promise<ApiResponse> {
  return c.api.handle({ method, url, headers, body });
}

const pbGet = (url: string) => send('GET', url, undefined, { accept: PB });
const pbPost = (url: string, body: Uint8Array, accept = PB_OR_JSON) => send('POST', url, body, { 'content-type': PB, accept });

beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c?.close();
});

describe('a protobuf-only client gets protobuf objects, lists and errors', () => {
  it('GET of a ConfigMap answers the object in a k8s\\0 envelope', async () => {
    expect((await c.post(CM, configMap('pb-get', { k: 'v' }))).status).toBe(201);
    const obj = pbBody(await pbGet(`${CM}/pb-get`));
    expect(obj).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pb-get', namespace: 'default' }, data: { k: 'v' } });
    expect(obj.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(obj.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(obj.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('a list is a ConfigMapList with items and list metadata', async () => {
    await c.post(CM, configMap('pb-list-a'));
    await c.post(CM, configMap('pb-list-b'));
    const list = pbBody(await pbGet(`${CM}?labelSelector=`));
    expect(list.kind).toBe('ConfigMapList');
    expect(list.apiVersion).toBe('v1');
    expect(list.metadata.resourceVersion).toMatch(/^\d+$/);
    const names = list.items.map((i: any) => i.metadata.name);
    expect(names).toEqual(expect.arrayContaining(['pb-list-a', 'pb-list-b']));
    // Items inside a list carry no TypeMeta on the wire (as in Go's typed lists).
    expect(list.items[0].kind).toBeUndefined();
  });

  it('a 404 is a protobuf Status with reason, code and details', async () => {
    const res = await pbGet(`${CM}/does-not-exist`);
    expect(res.status).toBe(404);
    expect(pbBody(res)).toMatchObject({
      apiVersion: 'v1',
      kind: 'Status',
      status: 'Failure',
      message: 'configmaps "does-not-exist" not found',
      reason: 'NotFound',
      details: { name: 'does-not-exist', kind: 'configmaps' },
      code: 404,
    });
  });

  it('a 409 on create answers a protobuf Status to a protobuf client', async () => {
    const body = hex(KUBECTL_CREATE_NAMESPACE_X);
    const first = await pbPost('/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict', body);
    expect(first.status).toBe(201);
    expect(pbBody(first)).toMatchObject({ kind: 'Namespace', metadata: { name: 'x' }, status: { phase: 'Active' } });
    const again = await pbPost('/api/v1/namespaces?fieldManager=kubectl-create&fieldValidation=Strict', body);
    expect(again.status).toBe(409);
    expect(pbBody(again)).toMatchObject({ kind: 'Status', reason: 'AlreadyExists', code: 409, message: 'namespaces "x" already exists' });
  });

  it('a JSON client still gets JSON', async () => {
    const r = await c.get(`${CM}/pb-get`, { accept: 'application/json' });
    expect(r.headers['Content-Type']).toBe('application/json');
    expect(r.json.data).toEqual({ k: 'v' });
  });

  it('q-values pick protobuf over JSON when protobuf ranks higher', async () => {
    const res = await send('GET', `${CM}/pb-get`, undefined, { accept: `application/json;q=0.5, ${PB};q=0.9` });
    expect(pbBody(res).metadata.name).toBe('pb-get');
  });
});

describe('protobuf request bodies', () => {
  it('the bytes of `kubectl create configmap c1 --from-literal=a=b` create the ConfigMap', async () => {
    const res = await pbPost(`${CM}?fieldManager=kubectl-create&fieldValidation=Strict`, hex(KUBECTL_CREATE_CONFIGMAP_C1));
    expect(res.status).toBe(201);
    expect(pbBody(res)).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'c1' }, data: { a: 'b' } });
    const stored = await c.get(`${CM}/c1`);
    expect(stored.json.data).toEqual({ a: 'b' });
    expect(stored.json.metadata.managedFields[0]).toMatchObject({ manager: 'kubectl-create', operation: 'Update' });
  });

  it('the bytes of `kubectl create secret generic s1 --from-literal=a=b` keep the secret bytes', async () => {
    const res = await pbPost(`${SECRETS}?fieldManager=kubectl-create`, hex(KUBECTL_CREATE_SECRET_S1));
    expect(res.status).toBe(201);
    const stored = await c.get(`${SECRETS}/s1`);
    expect(stored.json.data).toEqual({ a: 'Yg==' });
    expect(stored.json.type).toBe('Opaque');
  });

  it('a Deployment with replicas 0 keeps the explicit zero (a pointer field)', async () => {
    const body = encodeProtobufObject(deployment('pb-zero', 0));
    const res = await pbPost(DEPLOY, body);
    expect(res.status).toBe(201);
    expect(pbBody(res).spec.replicas).toBe(0);
    expect((await c.get(`${DEPLOY}/pb-zero`)).json.spec.replicas).toBe(0);
  });

  it('PUT with a protobuf body updates the object', async () => {
    const cur = pbBody(await pbGet(`${CM}/c1`));
    const body = encodeProtobufObject({ ...cur, data: { a: 'changed', b: 'new' } });
    const res = await send('PUT', `${CM}/c1`, body, { 'content-type': PB, accept: PB });
    expect(res.status).toBe(200);
    expect(pbBody(res).data).toEqual({ a: 'changed', b: 'new' });
  });

  it('a body whose prefix is not k8s\\0 is a 400 naming the expected prefix', async () => {
    const res = await send('POST', CM, new TextEncoder().encode('hello'), { 'content-type': PB, accept: 'application/json' });
    expect(res.status).toBe(400);
    expect(statusBody(res)).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      code: 400,
      message: 'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (68656c6c6f)',
    });
  });

  it('a protobuf body of another kind is rejected as kube does', async () => {
    const res = await pbPost(CM, hex(KUBECTL_CREATE_NAMESPACE_X), 'application/json');
    expect(res.status).toBe(400);
    expect(statusBody(res).message).toBe('Namespace in version "v1" cannot be handled as a ConfigMap: no kind "Namespace" is registered for version "v1"');
  });
});

describe('DeleteOptions in a protobuf body', () => {
  it('helm uninstall\'s empty DeleteOptions deletes the Secret', async () => {
    expect((await pbPost(SECRETS, encodeProtobufObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pb-del' }, data: { x: 'eA==' } }))).status).toBe(201);
    const res = await send('DELETE', `${SECRETS}/pb-del`, hex(HELM_DELETE_OPTIONS), { 'content-type': PB, accept: PB_OR_JSON });
    expect(res.status).toBe(200);
    expect(pbBody(res)).toMatchObject({ kind: 'Secret', metadata: { name: 'pb-del' } });
    expect((await c.get(`${SECRETS}/pb-del`)).status).toBe(404);
  });

  it('dryRun in the protobuf DeleteOptions keeps the object', async () => {
    await c.post(CM, configMap('pb-dry'));
    const opts = encodeProtobufObject({ apiVersion: 'v1', kind: 'DeleteOptions', dryRun: ['All'] });
    const res = await send('DELETE', `${CM}/pb-dry`, opts, { 'content-type': PB, accept: PB });
    expect(res.status).toBe(200);
    expect((await c.get(`${CM}/pb-dry`)).status).toBe(200);
  });

  it('a uid precondition in the protobuf DeleteOptions is enforced (409)', async () => {
    await c.post(CM, configMap('pb-pre'));
    const opts = encodeProtobufObject({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'wrong-uid' } });
    const res = await send('DELETE', `${CM}/pb-pre`, opts, { 'content-type': PB, accept: PB });
    expect(res.status).toBe(409);
    expect(pbBody(res)).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    expect(pbBody(res).message).toContain('the UID in the precondition (wrong-uid) does not match the UID in record');
  });
});

describe('custom resources have no protobuf form', () => {
  const WIDGETS = '/apis/pb.example.com/v1/namespaces/default/widgets';
  beforeAll(async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.pb.example.com' },
      spec: {
        group: 'pb.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    await eventually(async () => ((await c.get(WIDGETS)).status === 200 ? true : undefined));
    expect((await c.post(WIDGETS, { apiVersion: 'pb.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, size: 3 })).status).toBe(201);
  });

  it('a protobuf-only Accept is 406 Not Acceptable for the list and the object', async () => {
    for (const url of [WIDGETS, `${WIDGETS}/w1`]) {
      const res = await pbGet(url);
      expect(res.status).toBe(406);
      expect(statusBody(res)).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406, message: 'only the following media types are accepted: application/json, application/yaml' });
    }
  });

  it('protobuf with a JSON fallback gets JSON', async () => {
    const res = await send('GET', `${WIDGETS}/w1`, undefined, { accept: PB_OR_JSON });
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('application/json');
    expect(statusBody(res)).toMatchObject({ kind: 'Widget', size: 3 });
  });

  it('a protobuf body is 415 Unsupported Media Type', async () => {
    const body = encodeProtobufObject(configMap('not-a-widget'));
    const res = await send('POST', WIDGETS, body, { 'content-type': PB, accept: 'application/json' });
    expect(res.status).toBe(415);
    expect(statusBody(res)).toMatchObject({
      kind: 'Status',
      reason: 'UnsupportedMediaType',
      code: 415,
      message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml',
    });
  });
});

/** Reads a protobuf watch: 4-byte big-endian length, then an envelope holding a WatchEvent. */
function protobufFrames(res: ApiResponse) {
  if (!isStream(res.body)) throw new Error(`expected a stream, got ${res.status}`);
  const stream = res.body;
  const events: any[] = [];
  const lengths: number[] = [];
  let pending = new Uint8Array(0);
  stream.start({
    write(chunk) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      const joined = new Uint8Array(pending.length + bytes.length);
      joined.set(pending);
      joined.set(bytes, pending.length);
      pending = joined;
      while (pending.length >= 4) {
        const len = ((pending[0] << 24) | (pending[1] << 16) | (pending[2] << 8) | pending[3]) >>> 0;
        if (pending.length < 4 + len) break;
        lengths.push(len);
        events.push(decodeProtobufObject(pending.slice(4, 4 + len)));
        pending = pending.slice(4 + len);
      }
      return true;
    },
    end() {},
  });
  return { events, lengths, cancel: () => stream.cancel() };
}

describe('protobuf watch streams', () => {
  it('stream=watch answers length-prefixed WatchEvent frames with the object inside', async () => {
    const list = pbBody(await pbGet(CM));
    const res = await send('GET', `${CM}?watch=1&resourceVersion=${list.metadata.resourceVersion}`, undefined, { accept: `${PB};stream=watch` });
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe(`${PB};stream=watch`);
    const w = protobufFrames(res);
    try {
      const name = uniqueName('pb-watch');
      await c.post(CM, configMap(name, { v: '1' }));
      await c.del(`${CM}/${name}`);
      await eventually(async () => (w.events.length >= 2 ? true : undefined));
      const [added, deleted] = w.events;
      // The outer envelope names the watched group/version; the event itself has no TypeMeta.
      expect(added.apiVersion).toBe('v1');
      expect(added.kind).toBe('WatchEvent');
      expect(added.object.type).toBe('ADDED');
      expect(added.object.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { v: '1' } });
      expect(deleted.object.type).toBe('DELETED');
      expect(deleted.object.object.metadata.name).toBe(name);
      expect(w.lengths.every((n) => n > 20)).toBe(true);
    } finally {
      w.cancel();
    }
  });

  it('a plain protobuf Accept on a watch also gets frames (what client-go sends)', async () => {
    const res = await send('GET', `${DEPLOY}?watch=true`, undefined, { accept: PB_OR_JSON });
    expect(res.headers['Content-Type']).toBe(`${PB};stream=watch`);
    const w = protobufFrames(res);
    try {
      await eventually(async () => (w.events.length >= 1 ? true : undefined));
      expect(w.events[0].apiVersion).toBe('apps/v1');
      expect(w.events[0].object).toMatchObject({ type: 'ADDED', object: { kind: 'Deployment', metadata: { name: 'pb-zero' }, spec: { replicas: 0 } } });
    } finally {
      w.cancel();
    }
  });
});

describe('Tables stay JSON', () => {
  it('kubectl get\'s Table Accept answers a JSON Table even when protobuf is listed too', async () => {
    const r = await c.get(CM, { accept: `${TABLE_V1},${PB}` });
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe(TABLE_V1);
    expect(r.json.kind).toBe('Table');
    expect(r.json.columnDefinitions.map((d: any) => d.name)).toEqual(['Name', 'Data', 'Age']);
  });

  it('a Table asked for only in protobuf is 406 (Table has no protobuf message)', async () => {
    const table = await send('GET', CM, undefined, { accept: `${PB};as=Table;v=v1;g=meta.k8s.io` });
    expect(table.status).toBe(406);
  });
});

describe('PartialObjectMetadata (client-go\'s metadata informers)', () => {
  const POM_LIST_PB = `${PB};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`;
  const POM_LIST_JSON = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

  it('the metadata client\'s Accept (protobuf first, JSON fallback) answers a PartialObjectMetadataList', async () => {
    const res = await send('GET', CM, undefined, { accept: `${POM_LIST_PB},${POM_LIST_JSON},application/json` });
    expect(res.status).toBe(200);
    const list = statusBody(res);
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.apiVersion).toBe('meta.k8s.io/v1');
    expect(list.items.map((i: any) => i.metadata.name)).toContain('pb-get');
  });

  it('a protobuf-only PartialObjectMetadataList is served (it has a protobuf message, unlike Table)', async () => {
    const res = await send('GET', CM, undefined, { accept: POM_LIST_PB });
    expect(res.status).toBe(200);
    const list = pbBody(res);
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.items.find((i: any) => i.metadata.name === 'pb-get')).toMatchObject({ metadata: { name: 'pb-get', namespace: 'default' } });
    expect(list.items[0].data).toBeUndefined();
  });
});
