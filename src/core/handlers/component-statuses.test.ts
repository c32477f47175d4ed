// componentstatuses through the API: what kube-apiserver v1.23 answers when its scheduler and
// controller-manager are not running and etcd is healthy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TABLE_V1, type TestClient } from '../testing/api-server';
import { decodeProtobufObject } from '../codec/protobuf';
import { bodyBytes } from '../meta/types';
import { refusedDialMessage } from '../kinds/component-statuses';

const CS = '/api/v1/componentstatuses';
const WARNING = '299 - "v1 ComponentStatus is deprecated in v1.19+"';
const SCHEDULER = 'Get "https://127.0.0.1:10259/healthz": dial tcp 127.0.0.1:10259: connect: connection refused';
const CONTROLLER_MANAGER = 'Get "https://127.0.0.1:10257/healthz": dial tcp 127.0.0.1:10257: connect: connection refused';
const ETCD = '{"health":"true","reason":""}';

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('refusedDialMessage', () => {
  it("words a refused connection as Go's HTTP client does", () => {
    expect(refusedDialMessage('https://127.0.0.1:10259/healthz')).toBe(SCHEDULER);
  });
});

describe('list and get', () => {
  it('lists scheduler, controller-manager and etcd-0 with one Healthy condition each, nothing stored', async () => {
    const r = await c.get(CS);
    expect(r.status).toBe(200);
    expect(r.headers['Warning']).toBe(WARNING);
    const item = (name: string, status: string, message: string) => ({ metadata: { name, creationTimestamp: null }, conditions: [{ type: 'Healthy', status, message }] });
    expect(r.text).toBe(
      JSON.stringify({
        kind: 'ComponentStatusList',
        apiVersion: 'v1',
        metadata: {},
        items: [item('scheduler', 'False', SCHEDULER), item('controller-manager', 'False', CONTROLLER_MANAGER), item('etcd-0', 'True', ETCD)],
      }) + '\n',
    );
  });

  it('gets one component by name', async () => {
    const r = await c.get(`${CS}/etcd-0`);
    expect(r.status).toBe(200);
    expect(r.headers['Warning']).toBe(WARNING);
    expect(r.text).toBe('{"kind":"ComponentStatus","apiVersion":"v1","metadata":{"name":"etcd-0","creationTimestamp":null},"conditions":[{"type":"Healthy","status":"True","message":"{\\"health\\":\\"true\\",\\"reason\\":\\"\\"}"}]}\n');
    expect((await c.get(`${CS}/scheduler`)).json.conditions).toEqual([{ type: 'Healthy', status: 'False', message: SCHEDULER }]);
  });

  it('an unknown name is the plain error kube-apiserver returns: a 500 without a reason', async () => {
    const r = await c.get(`${CS}/kubelet`);
    expect(r.status).toBe(500);
    expect(r.headers['Warning']).toBe(WARNING);
    expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Component not found: kubelet', code: 500 });
  });

  it('applies label and field selectors to the made-up objects', async () => {
    const names = async (q: string) => (await c.get(`${CS}?${q}`)).json.items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect(await names('fieldSelector=metadata.name%3Detcd-0')).toEqual(['etcd-0']);
    expect(await names('fieldSelector=metadata.name!%3Detcd-0')).toEqual(['scheduler', 'controller-manager']);
    expect(await names('labelSelector=app%3Dx')).toEqual([]);
    const bad = await c.get(`${CS}?fieldSelector=status.x%3Dy`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('"status.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });
});

describe('output formats', () => {
  it('a Table with Name, Status, Message, Error as kubectl get cs shows it', async () => {
    const r = await c.get(CS, { accept: TABLE_V1 });
    expect(r.status).toBe(200);
    expect(r.headers['Warning']).toBe(WARNING);
    expect(r.json.metadata).toEqual({});
    expect(r.json.columnDefinitions.map((d: { name: string }) => d.name)).toEqual(['Name', 'Status', 'Message', 'Error']);
    expect(r.json.rows.map((row: { cells: string[] }) => row.cells)).toEqual([
      ['scheduler', 'Unhealthy', SCHEDULER, ''],
      ['controller-manager', 'Unhealthy', CONTROLLER_MANAGER, ''],
      ['etcd-0', 'Healthy', ETCD, ''],
    ]);
    expect(r.json.rows[2].object).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'etcd-0', creationTimestamp: null } });
    const one = await c.get(`${CS}/scheduler`, { accept: TABLE_V1 });
    expect(one.json.rows.map((row: { cells: string[] }) => row.cells)).toEqual([['scheduler', 'Unhealthy', SCHEDULER, '']]);
  });

  it('YAML with sorted keys', async () => {
    const r = await c.get(`${CS}/etcd-0`, { accept: 'application/yaml' });
    expect(r.text).toBe(`apiVersion: v1\nconditions:\n- message: '${ETCD}'\n  status: "True"\n  type: Healthy\nkind: ComponentStatus\nmetadata:\n  creationTimestamp: null\n  name: etcd-0\n`);
    const list = await c.get(CS, { accept: 'application/yaml' });
    expect(list.text.startsWith('apiVersion: v1\nitems:\n- conditions:\n')).toBe(true);
    expect(list.text.endsWith('kind: ComponentStatusList\nmetadata: {}\n')).toBe(true);
  });

  it('protobuf', async () => {
    const res = await c.api.handle({ method: 'GET', url: CS, headers: { accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.headers['Content-Type']).toBe('application/vnd.kubernetes.protobuf');
    const list = decodeProtobufObject(bodyBytes(res.body as Uint8Array)).object as { kind: string; items: { metadata: { name: string }; conditions: unknown[] }[] };
    expect(list.kind).toBe('ComponentStatusList');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['scheduler', 'controller-manager', 'etcd-0']);
    expect(list.items[2].conditions).toEqual([{ type: 'Healthy', status: 'True', message: ETCD }]);
  });
});

describe('what the storage does not do', () => {
  it('a ?watch is refused by the list handler, with the deprecation warning', async () => {
    const r = await c.get(`${CS}?watch=true`);
    expect(r.status).toBe(405);
    expect(r.headers['Warning']).toBe(WARNING);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'watch is not supported on resources of kind "componentstatuses"',
      reason: 'MethodNotAllowed',
      details: { kind: 'componentstatuses' },
      code: 405,
    });
  });

  it('the /watch/ path is not routed at all', async () => {
    for (const url of ['/api/v1/watch/componentstatuses', '/api/v1/watch/componentstatuses/etcd-0']) {
      const r = await c.get(url);
      expect(r.status, url).toBe(404);
      expect(r.headers['Warning'], url).toBeUndefined();
      expect(r.json.reason).toBe('NotFound');
    }
  });

  it('writes are 405 from the router, without the warning', async () => {
    const cs = { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'mine' } };
    for (const r of [await c.post(CS, cs), await c.put(`${CS}/etcd-0`, cs), await c.patch(`${CS}/etcd-0`, {}), await c.del(`${CS}/etcd-0`), await c.del(CS)]) {
      expect(r.status).toBe(405);
      expect(r.headers['Warning']).toBeUndefined();
      expect(r.json).toMatchObject({ reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' });
    }
    expect((await c.get(CS)).json.items).toHaveLength(3);
  });

  it('requests count as deprecated API use, without a removal release', async () => {
    await c.get(CS);
    expect((await c.get('/metrics')).text).toContain('apiserver_requested_deprecated_apis{group="",removed_release="",resource="componentstatuses",subresource="",version="v1"} 1\n');
    const event = c.api.audit?.events().find((e) => e.requestURI === CS);
    expect(event?.annotations).toMatchObject({ 'k8s.io/deprecated': 'true' });
    expect(event?.annotations?.['k8s.io/removed-release']).toBeUndefined();
  });
});
