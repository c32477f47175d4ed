// JSON pretty-printed as kube-apiserver does for humans: `?pretty=` (strconv.ParseBool) or a
// curl / Wget / browser User-Agent; objects, lists, discovery and Status errors alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configMap, startTestServer, type TestClient } from '../testing/api-server';
import { indentJson } from './pretty';

let c: TestClient;
const CM = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  c = await startTestServer();
  await c.post(CM, configMap('pp', { '2': 'b', '1': '<a&b>' }));
});
afterAll(async () => {
  await c.close();
});

describe('indentJson', () => {
  it('indents the text as json.Indent does, keeping escapes, key order and empty collections', () => {
    expect(indentJson('{"b":"x\\"}{,:","a":[1,{}],"c":[],"d":{"e":"\\u003c"}}\n')).toBe(
      '{\n  "b": "x\\"}{,:",\n  "a": [\n    1,\n    {}\n  ],\n  "c": [],\n  "d": {\n    "e": "\\u003c"\n  }\n}',
    );
  });
});

describe('who gets pretty JSON', () => {
  it.each(['curl/8.5.0', 'Wget/1.21', 'Mozilla/5.0 (X11; Linux x86_64)'])('%s', async (agent) => {
    const r = await c.get(`${CM}/pp`, { 'user-agent': agent });
    expect(r.text.startsWith('{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n')).toBe(true);
    expect(r.text.endsWith('\n}')).toBe(true);
    // Stored text re-indented, its bytes otherwise kept.
    expect(r.text).toContain('"data": {\n    "1": "<a&b>",\n    "2": "b"\n  }\n}');
  });

  it.each(['kubectl/v1.23.17 (linux/amd64) kubernetes/953be89', 'Mozilla/4.0', 'python-requests/2'])('not %s', async (agent) => {
    const r = await c.get(`${CM}/pp`, { 'user-agent': agent });
    expect(r.text.startsWith('{"kind":"ConfigMap"')).toBe(true);
  });

  it('the prefix is all that counts (kube checks strings.HasPrefix)', async () => {
    expect((await c.get(`${CM}/pp`, { 'user-agent': 'curly/1' })).text.startsWith('{\n  "kind"')).toBe(true);
  });

  it('pretty= overrides the User-Agent either way; a value ParseBool refuses is false', async () => {
    expect((await c.get(`${CM}/pp?pretty=0`, { 'user-agent': 'curl/8' })).text.startsWith('{"kind"')).toBe(true);
    expect((await c.get(`${CM}/pp?pretty=yes`, { 'user-agent': 'curl/8' })).text.startsWith('{"kind"')).toBe(true);
    expect((await c.get(`${CM}/pp?pretty=T`)).text.startsWith('{\n  "kind"')).toBe(true);
    // An empty value falls through to the User-Agent.
    expect((await c.get(`${CM}/pp?pretty=`, { 'user-agent': 'curl/8' })).text.startsWith('{\n  "kind"')).toBe(true);
  });

  it('lists, discovery and Status errors too', async () => {
    const curl = { 'user-agent': 'curl/8.5.0' };
    expect((await c.get(CM, curl)).text.startsWith('{\n  "kind": "ConfigMapList",')).toBe(true);
    expect((await c.get('/api/v1', curl)).text.startsWith('{\n  "kind": "APIResourceList",\n  "apiVersion": "v1",\n  "groupVersion": "v1",')).toBe(true);
    expect((await c.get('/apis', curl)).text.startsWith('{\n  "kind": "APIGroupList",')).toBe(true);
    const missing = await c.get(`${CM}/nope`, curl);
    expect(missing.status).toBe(404);
    expect(missing.text.startsWith('{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",')).toBe(true);
    const badPath = await c.get('/api/v1/nothing', curl);
    expect(badPath.text.startsWith('{\n  "kind": "Status",')).toBe(true);
  });
});
