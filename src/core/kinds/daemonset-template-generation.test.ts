// The DaemonSet's deprecated.daemonset.template.generation annotation through the API, as v1.23's
// daemonset strategy and apps/v1 conversion write it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient } from '../testing/api-server';

const DS = '/apis/apps/v1/namespaces/default/daemonsets';
const KEY = 'deprecated.daemonset.template.generation';
const daemonSet = (name: string, annotations?: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name, annotations },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'fluentd:1' }] } } },
});
const image = (i: string) => ({ spec: { template: { spec: { containers: [{ name: 'c', image: i }] } } } });

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c.close();
});

describe('DaemonSet template generation', () => {
  it('starts at 1, follows template changes only, and ignores a client’s value on update', async () => {
    const created = await c.post(DS, daemonSet('logs'));
    expect(created.status).toBe(201);
    expect(created.json.metadata.annotations).toEqual({ [KEY]: '1' });
    expect(created.json.metadata.generation).toBe(1);

    const rolled = await c.patch(`${DS}/logs`, image('fluentd:2'));
    expect([rolled.json.metadata.generation, rolled.json.metadata.annotations[KEY]]).toEqual([2, '2']);

    // A spec change outside the template bumps the generation, not the template generation.
    const other = await c.patch(`${DS}/logs`, { spec: { minReadySeconds: 5 } });
    expect([other.json.metadata.generation, other.json.metadata.annotations[KEY]]).toEqual([3, '2']);

    // The strategy keeps the stored value whatever the client sends, even without a spec change.
    const forged = await c.patch(`${DS}/logs`, { metadata: { annotations: { [KEY]: '9' } } });
    expect([forged.json.metadata.generation, forged.json.metadata.annotations[KEY]]).toEqual([3, '2']);
    const dropped = await c.patch(`${DS}/logs`, { metadata: { annotations: { [KEY]: null } } });
    expect(dropped.json.metadata.annotations[KEY]).toBe('2');

    // A full replace that leaves the template's defaults out changes nothing in the template.
    const cur = (await c.get(`${DS}/logs`)).json;
    const replaced = await c.put(`${DS}/logs`, { ...daemonSet('logs'), metadata: { name: 'logs', resourceVersion: cur.metadata.resourceVersion }, spec: { ...daemonSet('logs').spec, minReadySeconds: 5, template: { ...daemonSet('logs').spec.template, spec: { containers: [{ name: 'c', image: 'fluentd:2' }] } } } });
    expect(replaced.status).toBe(200);
    expect([replaced.json.metadata.generation, replaced.json.metadata.annotations[KEY]]).toEqual([3, '2']);
  });

  it('keeps a larger value given on create; a smaller one becomes 1', async () => {
    expect((await c.post(DS, daemonSet('kept', { [KEY]: '7' }))).json.metadata.annotations[KEY]).toBe('7');
    expect((await c.post(DS, daemonSet('raised', { [KEY]: '0' }))).json.metadata.annotations[KEY]).toBe('1');
  });

  it('is owned by the creating manager, as kube’s field manager sees it on the converted object', async () => {
    const created = await c.post(`${DS}?fieldManager=tester`, daemonSet('owned'));
    const entry = created.json.metadata.managedFields.find((m: any) => m.manager === 'tester');
    expect(entry.fieldsV1['f:metadata']['f:annotations']).toEqual({ '.': {}, [`f:${KEY}`]: {} });
  });
});
