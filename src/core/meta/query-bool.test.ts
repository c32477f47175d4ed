// Boolean query options read as apimachinery's conversion reads them: the Python client sends
// `watch=True`, which kube takes as a watch (only absent, `0` and `false` in any case are false).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectStream, configMap, startTestServer, type TestClient } from '../testing/api-server';
import { isTrueQueryValue, parseGoBool } from './query-bool';

let c: TestClient;
const CM = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  c = await startTestServer();
  await c.post(CM, configMap('flag', { a: '1' }));
});
afterAll(async () => {
  await c.close();
});

describe('boolean query values', () => {
  it('true unless absent, 0 or false in any case (the empty value is true)', () => {
    for (const v of ['true', 'True', 'TRUE', '1', 'yes', '', 't']) expect(isTrueQueryValue(v)).toBe(true);
    for (const v of [null, '0', 'false', 'False', 'FALSE', 'fAlSe']) expect(isTrueQueryValue(v)).toBe(false);
  });

  it('pretty is read with strconv.ParseBool', () => {
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].map(parseGoBool)).toEqual(Array(6).fill(true));
    expect(['0', 'f', 'F', 'FALSE', 'false', 'False'].map(parseGoBool)).toEqual(Array(6).fill(false));
    expect(parseGoBool('yes')).toBeUndefined();
    expect(parseGoBool('tRuE')).toBeUndefined();
  });
});

describe('watch=True through the API', () => {
  it.each(['True', 'TRUE', 'yes', ''])('watch=%s opens a watch', async (v) => {
    const res = await c.get(`${CM}?watch=${v}&fieldSelector=metadata.name%3Dflag`);
    const w = collectStream(res.raw);
    const [ev] = await w.waitFor(1);
    expect(ev.type).toBe('ADDED');
    expect(ev.object.metadata.name).toBe('flag');
    w.cancel();
  });

  it.each(['False', 'FALSE', '0'])('watch=%s lists', async (v) => {
    const res = await c.get(`${CM}?watch=${v}&fieldSelector=metadata.name%3Dflag`);
    expect(res.json.kind).toBe('ConfigMapList');
  });

  it('allowWatchBookmarks=True asks for bookmarks (sendInitialEvents needs it)', async () => {
    const res = await c.get(`${CM}?watch=1&sendInitialEvents=True&allowWatchBookmarks=True&resourceVersionMatch=NotOlderThan&fieldSelector=metadata.name%3Dflag`);
    const w = collectStream(res.raw);
    const events = await w.waitFor(2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    w.cancel();
  });

  it('orphanDependents=False is a value, conflicting with a propagationPolicy as kube says', async () => {
    const res = await c.del(`${CM}/flag?orphanDependents=False&propagationPolicy=Background`);
    expect(res.status).toBe(422);
    expect(res.json.message).toContain('orphanDependents and deletionPropagation cannot be both set');
  });
});
