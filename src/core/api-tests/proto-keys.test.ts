// Keys named as Object.prototype members (`__proto__`, `constructor`, `toString`, ...) in every
// place a client puts a key: body fields at every depth, labels, annotations and data keys, merge,
// strategic and JSON patches, applied configurations, selectors, query parameters and headers.
// Two servers get the same requests, one with each such name and the other with an ordinary twin
// name (`toStringq`): kube treats both alike, so their answers must be the same with the name
// swapped. After every request the built-in prototypes must be as they were, and afterwards a
// fresh object of every kind must create and read back as on a server that saw none of this.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtinResources, type SchemaNode } from '../schema';
import type { ResourceInfo } from '../schema/resource-info';
import { JSON_PATCH, MERGE_PATCH, startTestServer, type Reply, type TestClient } from '../testing/api-server';
import { FUZZ_CRD, Rand, randomResourceObject } from '../testing/fuzz';
import { decodeProtobufObject, encodeProtobufObject, hasProtobufForm } from '../codec/protobuf';
import { bodyBytes, isParts } from '../meta/types';
import { comparable, copyJson, defineKey, mentionsProtoName, nestedPatch, objectPaths, pointer, PROTO_NAMES, prototypePollution, twinName, withKeyAt } from '../testing/proto-keys';

const NS = 'pk';
const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const SEED = Number(process.env.FUZZ_SEED ?? 7);
/**
 * PROTO_ALL=1 puts every name in every position of every kind (about 90,000 requests); by default
 * each kind gets each name in one position picked at random, and the query, selector and header
 * positions on every fourth kind, so that every position meets every name many times over.
 */
const ALL = process.env.PROTO_ALL === '1';

/** A CRD whose schema declares a property and a map named after every Object.prototype member. */
const PROTO_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.proto.example.com' },
  spec: {
    group: 'proto.example.com',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              properties: Object.fromEntries([
                ...PROTO_NAMES.map((n) => [n, { type: 'string', default: 'd' }]),
                ['m', { type: 'object', additionalProperties: { type: 'string' } }],
                ['free', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }],
              ]),
            },
          },
        },
      },
    }],
  },
};

const custom = (group: string, resource: string, kind: string): ResourceInfo => ({
  group, version: 'v1', resource, singular: resource.slice(0, -1), kind, listKind: `${kind}List`, namespaced: true, custom: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: [], categories: [], subresources: [],
});
const KINDS: ResourceInfo[] = [
  ...builtinResources.filter((r) => r.definition && r.verbs.includes('create')),
  custom('fuzz.example.com', 'widgets', 'Widget'),
  custom('proto.example.com', 'gadgets', 'Gadget'),
];

function schemaOf(info: ResourceInfo): string | SchemaNode {
  if (info.resource === 'widgets') return FUZZ_CRD.spec.versions[0]!.schema.openAPIV3Schema as SchemaNode;
  if (info.resource === 'gadgets') return PROTO_CRD.spec.versions[0]!.schema.openAPIV3Schema as SchemaNode;
  return info.definition!;
}
/** A reply's body as text; a protobuf one decoded to JSON first (its length prefixes grow with the twin names). */
function textOf(reply: Reply): string {
  const body = reply.raw.body;
  if (!reply.headers['Content-Type']?.startsWith('application/vnd.kubernetes.protobuf') || !(body instanceof Uint8Array || isParts(body))) return reply.text;
  try {
    return JSON.stringify(decodeProtobufObject(bodyBytes(body)));
  } catch (e) {
    return `undecodable protobuf: ${(e as Error).message}`;
  }
}

const apiVersionOf = (info: ResourceInfo) => (info.group ? `${info.group}/${info.version}` : info.version);
function collectionUrl(info: ResourceInfo): string {
  const root = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  return info.namespaced ? `${root}/namespaces/${NS}/${info.resource}` : `${root}/${info.resource}`;
}

/**
 * A random object of the kind, always named (generated names differ from server to server), and
 * without proto names of its own (the random objects draw keys from them too): the requests put
 * those where they are wanted.
 */
function randomNamed(r: Rand, info: ResourceInfo, name: string): Record<string, unknown> {
  let body = randomResourceObject(r, schemaOf(info), apiVersionOf(info), info.kind, name);
  while (mentionsProtoName(JSON.stringify(body))) body = randomResourceObject(r, schemaOf(info), apiVersionOf(info), info.kind, name);
  const { generateName: _, ...meta } = (body.metadata && typeof body.metadata === 'object' ? body.metadata : {}) as Record<string, unknown>;
  return { ...body, metadata: { ...meta, name } };
}

describe('keys named as Object.prototype members', () => {
  let a: TestClient;
  let b: TestClient;
  const problems: string[] = [];
  let count = 0;
  /** An object each kind created with (dry run), kept for the last test. */
  const valid = new Map<ResourceInfo, Record<string, unknown>>();

  /** Sends the request with `name` to server a and with its twin to server b; records any difference and any pollution. */
  const both = async (what: string, method: string, url: string, body: unknown, headers: Record<string, string>, name?: string): Promise<[Reply, Reply]> => {
    const swap = (text: string) => (name === undefined ? text : text.split(name).join(twinName(name)));
    const bodyText = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const twinHeaders = Object.fromEntries(Object.entries(headers).map(([k, v]) => [swap(k), swap(v)]));
    count++;
    // A protobuf body is encoded from each side's JSON text (its length prefixes differ); one
    // that Go could not have encoded (a random value of the wrong type) goes as JSON to both.
    if (headers['content-type'] === PROTOBUF) {
      try {
        encodeProtobufObject(JSON.parse(bodyText!));
      } catch {
        headers = { ...headers, 'content-type': 'application/json' };
        twinHeaders['content-type'] = 'application/json';
      }
    }
    const encode = (text: string | undefined) => (text !== undefined && headers['content-type'] === PROTOBUF ? encodeProtobufObject(JSON.parse(text)) : text);
    const ra = await a.request(method, url, encode(bodyText), headers);
    const rb = await b.request(method, swap(url), encode(bodyText === undefined ? undefined : swap(bodyText)), twinHeaders);
    const where = `${what}: ${method} ${url} ${bodyText?.slice(0, 200) ?? ''}`;
    // Lists the servers' own controllers fill differently: flow-control objects' managedFields,
    // and Secrets holding each server's own CA and token.
    const textToo = !/flowschemas|prioritylevelconfigurations|\/secrets(\?|$)/.test(url) || method !== 'GET';
    if (ra.status !== rb.status) problems.push(`${where}\n  ${ra.status} ${ra.text.slice(0, 300)}\n  vs ${rb.status} ${rb.text.slice(0, 300)}`);
    else if (textToo) {
      const [ta, tb] = [comparable(textOf(ra)), comparable(textOf(rb))];
      let at = 0;
      while (at < ta.length && ta[at] === tb[at]) at++;
      // A message quoting a long body cuts it at a fixed length, which the longer twin names shift.
      const cut = ra.json?.kind === 'Status' && ra.json.reason === rb.json?.reason && tb.length - at < 40;
      if (ta !== tb && !cut) problems.push(`${where}\n  ${ra.status} …${ta.slice(Math.max(0, at - 200), at + 300)}\n  vs …${tb.slice(Math.max(0, at - 200), at + 300)}`);
    }
    const warnA = comparable(ra.headers.warning ?? '');
    if (warnA !== comparable(rb.headers.warning ?? '')) problems.push(`${where}\n  warning ${warnA} vs ${rb.headers.warning}`);
    // Once polluted, every later answer is suspect: stop at the request that did it.
    const polluted = prototypePollution();
    if (polluted.length) throw new Error(`${where}: ${polluted.join(', ')}`);
    return [ra, rb];
  };

  beforeAll(async () => {
    // One fixed clock for both servers: managedFields are ordered by time, timestamps are written.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    a = await startTestServer();
    b = await startTestServer();
    for (const c of [a, b]) {
      expect((await c.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
      expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', FUZZ_CRD)).status).toBe(201);
      expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', PROTO_CRD)).status).toBe(201);
    }
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    vi.useRealTimers();
  });

  /** An object of `info` both servers create (201), tried minimal first, then random ones; the last try when none is. */
  const baseObject = async (info: ResourceInfo, r: Rand, name: string): Promise<Record<string, unknown>> => {
    let body: Record<string, unknown> = { apiVersion: apiVersionOf(info), kind: info.kind, metadata: { name } };
    for (let attempt = 0; attempt < 40; attempt++) {
      if (attempt > 0) body = randomNamed(r, info, name);
      const [ra] = await both('base', 'POST', `${collectionUrl(info)}?dryRun=All`, body, {});
      if (ra.status === 201) {
        valid.set(info, body);
        break;
      }
    }
    return body;
  };

  it('are treated as any other key in every position, and pollute nothing', { timeout: 300_000 }, async () => {
    const r = new Rand(SEED);
    let serial = 0;
    for (const info of KINDS) {
      const base = await baseObject(info, r, `base-${serial++}`);
      const nodes = objectPaths(base).filter((p) => p.length > 0 && p[0] !== 'metadata' && !p.some((k) => /^\d+$/.test(k)));
      const url = collectionUrl(info);
      const targetName = `t-${serial++}`;
      await both('target', 'POST', url, { ...base, metadata: { ...(base.metadata as object), name: targetName } }, {});
      for (const name of PROTO_NAMES) {
        const positions: string[][] = [[], ['metadata'], ['metadata', 'labels'], ['metadata', 'annotations']];
        for (let i = 0; i < 2 && nodes.length; i++) positions.push(r.pick(nodes));
        for (const path of ALL ? positions : [r.pick(positions)]) {
          const value = r.pick([{ x: '1' }, 'v', { polluted: { x: '1' } }]);
          const objName = `o-${serial++}`;
          const body = withKeyAt({ ...base, metadata: { ...(base.metadata as object), name: objName } }, path, name, value);
          // Protobuf carries map keys (labels, annotations, data), not unknown fields.
          const mapPosition = path[0] === 'metadata' && path.length === 2;
          const contentType = r.pick(['application/json', 'application/json', 'application/yaml', ...(mapPosition && hasProtobufForm(String(body.apiVersion), String(body.kind)) ? [PROTOBUF, PROTOBUF] : [])]);
          const [created] = await both('create', 'POST', url, body, { 'content-type': contentType }, name);
          // Controllers (tokens, GC) react on a later turn: let them, on both servers, first.
          await new Promise((resolve) => setTimeout(resolve, 0));
          const accept = r.pick(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf', 'application/json;as=Table;v=v1;g=meta.k8s.io']);
          if (created.status === 201 && !info.virtual) await both('read back', 'GET', `${url}/${objName}`, undefined, { accept }, name);
          const item = `${url}/${targetName}`;
          await both('merge', 'PATCH', item, nestedPatch(path, name, value), { 'content-type': MERGE_PATCH }, name);
          await both('strategic', 'PATCH', item, nestedPatch(path, name, value), { 'content-type': SMP }, name);
          await both('json patch', 'PATCH', item, [{ op: 'add', path: `${pointer(path)}/${name}`, value }], { 'content-type': JSON_PATCH }, name);
          await both('json patch test', 'PATCH', item, [{ op: 'test', path: `${pointer(path)}/${name}`, value }], { 'content-type': JSON_PATCH }, name);
          await both('json patch remove', 'PATCH', item, [{ op: 'remove', path: `${pointer(path)}/${name}` }], { 'content-type': JSON_PATCH }, name);
          const applied = withKeyAt({ ...base, metadata: { name: targetName } }, path, name, value);
          await both('apply', 'PATCH', `${item}?fieldManager=${encodeURIComponent(r.pick(['m1', 'm2', name]))}&force=true`, applied, { 'content-type': APPLY }, name);
          await both('get', 'GET', item, undefined, {}, name);
        }
        if (!ALL && KINDS.indexOf(info) % 4 !== 0) continue;
        const q = encodeURIComponent(name);
        await both('query parameter', 'GET', `${url}?${q}=1`, undefined, {}, name);
        await both('query parameter on create', 'POST', `${url}?${q}=1&dryRun=All`, { ...base, metadata: { name: `q-${serial++}` } }, {}, name);
        await both('label selector', 'GET', `${url}?labelSelector=${q}%3Dv`, undefined, {}, name);
        await both('label selector set', 'GET', `${url}?labelSelector=${q}%20in%20(v,x),!${q}`, undefined, {}, name);
        await both('field selector', 'GET', `${url}?fieldSelector=metadata.${q}%3Dv`, undefined, {}, name);
        await both('header', 'GET', url, undefined, { [name.toLowerCase()]: 'x' }, name);
      }
    }
    if (process.env.PROTO_REPORT) (await import('node:fs')).writeFileSync(process.env.PROTO_REPORT, problems.join('\n\n'));
    expect(count).toBeGreaterThan(KINDS.length * PROTO_NAMES.length);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(problems.length).toBe(0);
  });

  it('leave every kind creating and reading back as on a server that saw none of them', { timeout: 120_000 }, async () => {
    const fresh = await startTestServer();
    try {
      const r = new Rand(SEED + 1);
      for (const c of [fresh]) {
        expect((await c.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
        expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', FUZZ_CRD)).status).toBe(201);
        expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', PROTO_CRD)).status).toBe(201);
      }
      let created = 0;
      const differences: string[] = [];
      for (const info of KINDS) {
        for (let attempt = 0; attempt < 10; attempt++) {
          const name = `fresh-${info.resource.replace(/[^a-z0-9]/g, '')}-${attempt}`;
          const known = valid.get(info);
          const body = attempt === 0 ? (known ? { ...copyJson(known), metadata: { ...(known.metadata as object), name } } : { apiVersion: apiVersionOf(info), kind: info.kind, metadata: { name } }) : randomNamed(r, info, name);
          const url = collectionUrl(info);
          const [onA, onFresh] = [await a.post(url, copyJson(body)), await fresh.post(url, copyJson(body))];
          if (onA.status !== onFresh.status || comparable(onA.text) !== comparable(onFresh.text)) differences.push(`${info.kind}: ${onA.status} ${onA.text.slice(0, 300)}\n  vs ${onFresh.status} ${onFresh.text.slice(0, 300)}`);
          if (onA.status !== 201) continue;
          created++;
          if (!info.virtual) {
            const got = await a.get(`${url}/${onA.json.metadata.name}`);
            if (onA.json.metadata.resourceVersion === got.json?.metadata?.resourceVersion && got.text !== onA.text) differences.push(`${info.kind}: create answered ${onA.text.slice(0, 300)}\n  GET reads ${got.text.slice(0, 300)}`);
          }
          break;
        }
      }
      expect(differences).toEqual([]);
      // Kinds no random object of which is valid stay out (a third or so).
      expect(created).toBeGreaterThanOrEqual(KINDS.length / 3);
      expect(prototypePollution()).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});

describe('the reported cases', () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await startTestServer();
  });
  afterAll(async () => {
    await c?.close();
  });
  const CM = '/api/v1/namespaces/default/configmaps';

  it('a merge patch with __proto__ is answered 200 and the next create of another kind 201', async () => {
    expect((await c.post(CM, { metadata: { name: 'v' }, data: { a: 'b' } })).status).toBe(201);
    const patched = await c.request('PATCH', `${CM}/v`, '{"__proto__":{"x":"1"}}', { 'content-type': MERGE_PATCH });
    expect(patched.status).toBe(200);
    expect(patched.json.data).toEqual({ a: 'b' });
    expect(prototypePollution()).toEqual([]);
    const secret = await c.post('/api/v1/namespaces/default/secrets', { metadata: { name: 's' }, stringData: { k: 'v' } });
    expect(secret.status).toBe(201);
    expect(secret.json.data).toEqual({ k: 'dg==' });
  });

  it('under RBAC, a user allowed only get and patch on ConfigMaps of one namespace cannot lock the admin out', async () => {
    const rbac = await startTestServer({ authorization: 'RBAC' });
    try {
      const role = { metadata: { name: 'cm-patcher' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'patch'] }] };
      const binding = { metadata: { name: 'cm-patcher' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'cm-patcher' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'mallory' }] };
      expect((await rbac.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', role)).status).toBe(201);
      expect((await rbac.post('/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings', binding)).status).toBe(201);
      expect((await rbac.post(CM, { metadata: { name: 'v' } })).status).toBe(201);
      const asMallory = { 'content-type': MERGE_PATCH, 'impersonate-user': 'mallory' };
      expect((await rbac.request('PATCH', `${CM}/v`, '{"__proto__":{"x":"1"},"constructor":{"prototype":{"y":"1"}}}', asMallory)).status).toBe(200);
      expect(prototypePollution()).toEqual([]);
      expect((await rbac.post('/api/v1/namespaces', { metadata: { name: 'after' } })).status).toBe(201);
      expect((await rbac.post('/apis/apps/v1/namespaces/after/deployments', { metadata: { name: 'web' }, spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } } })).status).toBe(201);
    } finally {
      await rbac.close();
    }
  });

  const KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  /** The data map as the server answered it, its keys own keys of the parsed JSON. */
  const dataOf = (reply: Reply): Record<string, unknown> => {
    expect(reply.status, reply.text).toBeLessThan(300);
    return reply.json.data;
  };
  const entry = (key: string, value: string) => {
    const out = {};
    defineKey(out, key, value);
    return out;
  };

  it.each(KEYS)('ConfigMap data key %s is stored and read back on create and every kind of patch', async (key) => {
    const name = `k-${key.toLowerCase().replace(/_/g, 'u')}`;
    const url = `${CM}/${name}`;
    expect(dataOf(await c.request('POST', CM, `{"metadata":{"name":"${name}"},"data":{"${key}":"created"}}`))).toStrictEqual(entry(key, 'created'));
    expect(dataOf(await c.get(url))).toStrictEqual(entry(key, 'created'));
    expect(dataOf(await c.request('PATCH', url, `{"data":{"${key}":"merged"}}`, { 'content-type': MERGE_PATCH }))).toStrictEqual(entry(key, 'merged'));
    expect(dataOf(await c.request('PATCH', url, `[{"op":"replace","path":"/data/${key}","value":"json"}]`, { 'content-type': JSON_PATCH }))).toStrictEqual(entry(key, 'json'));
    expect(dataOf(await c.request('PATCH', url, `{"data":{"${key}":"strategic"}}`, { 'content-type': SMP }))).toStrictEqual(entry(key, 'strategic'));
    expect(dataOf(await c.get(url))).toStrictEqual(entry(key, 'strategic'));
    const applyUrl = `${CM}/a${name}?fieldManager=m`;
    const applied = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a${name}"},"data":{"${key}":"applied"}}`;
    expect(dataOf(await c.request('PATCH', applyUrl, applied, { 'content-type': APPLY }))).toStrictEqual(entry(key, 'applied'));
    expect(dataOf(await c.get(`${CM}/a${name}`))).toStrictEqual(entry(key, 'applied'));
    // The key is owned by the manager, so applying without it removes it.
    const second = await c.request('PATCH', applyUrl, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a${name}"},"data":{"other":"x"}}`, { 'content-type': APPLY });
    expect(dataOf(second)).toStrictEqual({ other: 'x' });
    expect(prototypePollution()).toEqual([]);
  });
});
