// Random requests against every built-in kind, checking what must hold for any input: the core
// never throws, never answers 500 InternalError (a bug turned into a Status), every error is a
// well-formed Status, a failed write leaves the object as it was, and what a write answers is
// what a later GET reads (also as protobuf and as a Table). Seeded: a failure names its seed and
// step, and FUZZ_SEED=<n> FUZZ_STEPS=<n> replays or widens a run
// (FUZZ_TRACE=<url part> prints the requests of one object).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinResources } from '../schema';
import type { ResourceInfo } from '../schema/resource-info';
import { JSON_PATCH, MERGE_PATCH, startTestServer, type Reply, type TestClient } from '../testing/api-server';
import { CONTENT_TYPES, FUZZ_CRD, Rand, randomJsonPatch, randomMergePatch, randomRawBody, randomResourceObject } from '../testing/fuzz';
import type { SchemaNode } from '../schema';
import { encodeProtobufObject, hasProtobufForm } from '../codec/protobuf';
import { stringify as toYamlText } from 'yaml';
import { parseTarget } from '../meta/requestinfo';
import { prototypePollution } from '../testing/proto-keys';

const SEEDS = process.env.FUZZ_SEED ? [Number(process.env.FUZZ_SEED)] : [1, 2, 3, 4];
const STEPS = Number(process.env.FUZZ_STEPS ?? 1500);
/** FUZZ_TRACE=<url part>: print every request to matching URLs and its full answer. */
const TRACE = process.env.FUZZ_TRACE;
const NS = 'fuzz';
const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

/** Kinds whose objects controllers of the server itself rewrite (status, finalizers, token references). */
const CONTROLLED = new Set(['flowschemas', 'prioritylevelconfigurations', 'namespaces', 'serviceaccounts', 'apiservices']);

/** Kinds a client can create: every built-in with a schema and a create verb. */
const BUILTIN = builtinResources.filter((r) => r.definition && r.verbs.includes('create'));
/** The fuzz CRD's kind, served once the CRD is created. */
const WIDGETS: ResourceInfo = {
  group: 'fuzz.example.com', version: 'v1', resource: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList', namespaced: true, custom: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], shortNames: [], categories: [],
  subresources: [{ name: 'status', kind: 'Widget' }, { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1' }] as ResourceInfo['subresources'],
};
const CREATABLE = [...BUILTIN, WIDGETS, WIDGETS, WIDGETS];

/** What random objects of a kind are made from: the built-in definition, or the CRD's schema. */
function schemaOf(info: ResourceInfo): string | SchemaNode {
  return info.custom ? (FUZZ_CRD.spec.versions[0]!.schema.openAPIV3Schema as SchemaNode) : info.definition!;
}

interface Known {
  info: ResourceInfo;
  url: string;
  /** The object's JSON text as the last GET read it. */
  text: string;
}

function collectionUrl(info: ResourceInfo): string {
  const root = info.group ? `/apis/${info.group}/${info.version}` : `/api/${info.version}`;
  return info.namespaced ? `${root}/namespaces/${NS}/${info.resource}` : `${root}/${info.resource}`;
}

function apiVersionOf(info: ResourceInfo): string {
  return info.group ? `${info.group}/${info.version}` : info.version;
}

function randomQuery(r: Rand): string {
  const q: string[] = [];
  if (r.chance(0.1)) q.push('dryRun=All');
  if (r.chance(0.02)) q.push(`dryRun=${r.pick(['bogus', '', 'All&dryRun=All'])}`);
  if (r.chance(0.2)) q.push(`fieldValidation=${r.pick(['Strict', 'Warn', 'Ignore', 'bogus', ''])}`);
  if (r.chance(0.05)) q.push(`fieldManager=${encodeURIComponent(r.pick(['', 'a'.repeat(200), 'x\ny', 'kubectl']))}`);
  if (r.chance(0.03)) q.push(`pretty=${r.pick(['true', '1', 'x'])}`);
  return q.length ? `?${q.join('&')}` : '';
}

/**
 * 5xx answers kube-apiserver v1.23 gives on purpose: errors that are not API statuses (code 500,
 * no reason) from typing an applied configuration, from strategic merge patch (see
 * registry/patch/strategic-errors.ts), from a create carrying a resourceVersion and from a
 * resourceVersion parameter the watch cache cannot parse; and the 504
 * of a read at a revision the server has not reached.
 */
function kube5xx(line: string, contentType: string | undefined): boolean {
  if (contentType === SMP && line.startsWith('500 : ')) return true;
  if (contentType === APPLY && (line.startsWith('500 : failed to create typed patch object: ') || line.startsWith('500 : failed to convert new object to proper version: '))) return true;
  if (line.startsWith('500 : no preferred addresses found; known addresses: ')) return true; // node proxy, a plain error
  // A resourceVersion that is no uint64, where the watch cache parses it (get, watch, plain list).
  if (line.startsWith('500 : resourceVersion: Invalid value: ')) return true;
  // An update whose metadata.resourceVersion is no uint64 (APIObjectVersioner.ObjectResourceVersion).
  if (line.startsWith('500 : strconv.ParseUint: parsing ')) return true;
  return line === '500 : resourceVersion should not be set on objects to be created' || line.startsWith('504 Timeout: Timeout: Too large resource version: ');
}

/** Impersonation headers: a user, groups, extras, a uid; well-formed or not. */
function randomImpersonation(r: Rand): Record<string, string> {
  const h: Record<string, string> = { 'impersonate-user': r.pick(['alice', 'system:serviceaccount:fuzz:default', 'system:anonymous', '', 'system:admin']) };
  if (r.chance(0.5)) h['impersonate-group'] = r.pick(['system:masters', 'dev', '', 'system:authenticated']);
  if (r.chance(0.2)) h[r.pick(['impersonate-extra-scopes', 'impersonate-extra-', 'impersonate-extra-%zz'])] = r.pick(['view', '']);
  if (r.chance(0.2)) h['impersonate-uid'] = r.pick(['u-1', '']);
  return h;
}

/** As the server reads it: every dryRun value `All` (see handlers/options.ts; others are a 422). */
function isDryRun(query: string): boolean {
  const values = new URLSearchParams(query).getAll('dryRun');
  return values.length > 0 && values.every((v) => v === 'All');
}

/** What must hold for every reply. */
function replyProblems(reply: Reply, contentType: string | undefined): string[] {
  const problems: string[] = [];
  const line = `${reply.status} ${reply.json?.reason ?? ''}: ${reply.json?.message ?? reply.text.slice(0, 200)}`;
  if (reply.status >= 500 && !kube5xx(line, contentType)) problems.push(line);
  if (reply.status >= 400) {
    const s = reply.json;
    if (!s || s.kind !== 'Status' || s.apiVersion !== 'v1' || s.status !== 'Failure' || s.code !== reply.status || typeof s.message !== 'string')
      problems.push(`not a Status: ${reply.status} ${reply.text.slice(0, 200)}`);
  }
  return problems;
}

/** The first path where two JSON values differ, key order included; undefined when equal. */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (a === b) return undefined;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return `${path || '/'}: ${JSON.stringify(a)?.slice(0, 120)} vs ${JSON.stringify(b)?.slice(0, 120)}`;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  if (ka.join() !== kb.join()) return `${path || '/'} keys: ${ka.join()} vs ${kb.join()}`;
  for (const k of ka) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}/${k}`);
    if (d) return d;
  }
  return undefined;
}

describe.each(SEEDS)('API fuzz, seed %i', (seed) => {
  let c: TestClient;
  beforeAll(async () => {
    // Even seeds run with RBAC on, and some requests impersonate someone (often someone odd).
    c = await startTestServer(seed % 2 === 0 ? { authorization: 'RBAC' } : {});
    expect((await c.post('/api/v1/namespaces', { metadata: { name: NS } })).status).toBe(201);
    expect((await c.post('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', FUZZ_CRD)).status).toBe(201);
  });
  afterAll(async () => {
    await c.close();
  });

  it(`${STEPS} random requests keep every invariant`, { timeout: 120_000 }, async () => {
    const r = new Rand(seed);
    const known: Known[] = [];
    const problems: string[] = [];
    let step = 0;
    const record = (what: string, more: string[]) => {
      for (const p of more) problems.push(`seed ${seed} step ${step}: ${p} ← ${what}`);
    };
    const send = async (what: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply | undefined> => {
      try {
        if (r.chance(0.05)) headers = { ...headers, ...randomImpersonation(r) };
        const reply = await c.request(method, url, body, headers);
        if (TRACE && url.includes(TRACE)) console.log(`step ${step} ${method} ${url} ${JSON.stringify(headers)}\n  sent ${JSON.stringify(body)}\n  got ${reply.status} ${reply.text}`);
        const shown = body instanceof Uint8Array ? new TextDecoder().decode(body.subarray(0, 120)) : JSON.stringify(body)?.slice(0, 300);
        // A HEAD answer has no body to be a Status; nor has Go's HTTP server's own 400 for a
        // path with a bad escape, which no API handler sees (parseTarget).
        const goBadTarget = parseTarget(url).path === undefined && reply.status === 400 && reply.text === '400 Bad Request';
        let found = goBadTarget ? [] : replyProblems(reply, headers['content-type']).filter((p) => !(method === 'HEAD' && p.startsWith('not a Status')));
        // Nor does it show which 500 it is: the same GET does.
        if (method === 'HEAD' && reply.status >= 500) found = replyProblems(await c.request('GET', url, undefined, headers), headers['content-type']);
        // Keys named as Object.prototype members are in the mix: no request may change a built-in prototype.
        found.push(...prototypePollution());
        record(`${method} ${url} (${what}, ${headers['content-type'] ?? 'json'}) ${shown}`, found);
        return reply;
      } catch (error) {
        record(`${method} ${url} (${what})`, [`threw ${(error as Error).stack ?? String(error)}`]);
        return undefined;
      }
    };
    /** After a write: reads it back as JSON, protobuf and Table; a failed or dry-run write must have changed nothing. */
    const settle = async (what: string, k: Known, reply: Reply | undefined, dryRun: boolean) => {
      // Controllers (GC, tokens) react on later turns: let them, then read.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const got = await send('read back', 'GET', k.url);
      if (!got) return;
      const wrote = reply !== undefined && reply.status < 300 && !dryRun;
      if (reply && !wrote && reply.status !== 200 && got.status === 200 && got.text !== k.text && !CONTROLLED.has(k.info.resource)) record(`${k.url}`, [`failed write (${reply.status}) changed the object`]);
      if (reply && wrote && reply.json?.kind === k.info.kind && got.status === 200 && reply.json.metadata?.resourceVersion === got.json?.metadata?.resourceVersion) {
        const diff = firstDifference(reply.json, got.json);
        if (diff) record(`${k.url} after ${what}`, [`write answered and GET reads differ at ${diff}`]);
      }
      if (got.status === 200) {
        for (const accept of [PROTOBUF, TABLE, 'application/yaml']) await send(`read as ${accept}`, 'GET', k.url, undefined, { accept });
        k.text = got.text;
      } else {
        known.splice(known.indexOf(k), 1);
      }
    };

    /** The body as JSON mostly, as YAML or protobuf (bytes flipped now and then) sometimes. */
    const encoded = (body: Record<string, unknown>): [unknown, Record<string, string>] => {
      const how = r.int(10);
      if (how === 0) return [toYamlText(body), { 'content-type': 'application/yaml' }];
      if (how === 1 && hasProtobufForm(String(body.apiVersion), String(body.kind))) {
        let bytes: Uint8Array;
        try {
          bytes = encodeProtobufObject(body);
        } catch {
          return [body, {}];
        }
        if (r.chance(0.5)) for (let i = 0; i < 3; i++) bytes[4 + r.int(Math.max(1, bytes.length - 4))] = r.int(256);
        return [bytes, { 'content-type': PROTOBUF }];
      }
      return [body, {}];
    };
    /** A subresource the kind serves, with a random body where it takes one. */
    const sendSubresource = async (info: ResourceInfo, url: string, fresh: Record<string, unknown>): Promise<Reply | undefined> => {
      const names = info.subresources.map((s) => s.name);
      const pick = names.length ? r.pick(names) : 'nope';
      const spec = fresh.spec ?? r.pick([null, {}, 'x']);
      switch (pick) {
        case 'scale':
          if (r.chance(0.3)) return send('scale get', 'GET', `${url}/scale`);
          if (r.chance(0.5)) return send('scale put', 'PUT', `${url}/scale`, { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: url.split('/').pop() }, spec: { replicas: r.pick([0, 3, -1, 1.5, 'x', 2147483648]) } });
          return send('scale patch', 'PATCH', `${url}/scale`, { spec: { replicas: r.pick([2, -3, null, 'x']) } }, { 'content-type': MERGE_PATCH });
        case 'eviction':
          return send('eviction', 'POST', `${url}/eviction`, r.pick([{ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: url.split('/').pop() } }, { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name: 'other' }, deleteOptions: { gracePeriodSeconds: r.pick([0, -5, 'x']) } }, { kind: 'Nope' }, spec]));
        case 'binding':
          return send('binding', 'POST', `${url}/binding`, r.pick([{ apiVersion: 'v1', kind: 'Binding', metadata: { name: url.split('/').pop() }, target: { kind: 'Node', name: r.pick(['n1', '', 'a/b']) } }, { target: spec }, spec]));
        case 'token':
          return send('token', 'POST', `${url}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: r.pick([{ audiences: ['a'], expirationSeconds: r.pick([600, 3600, 1, -1, 'x', 2 ** 40]) }, {}, spec, { boundObjectRef: { kind: r.pick(['Pod', 'Secret', 'Node']), name: 'x' } }]) });
        case 'log':
          return send('log', 'GET', `${url}/log?${r.pick(['tailLines=-1', 'sinceSeconds=0', 'limitBytes=x', 'container=nope', 'follow=true&timestamps=x', 'previous=true'])}`);
        case 'status':
          return send('status patch', 'PATCH', `${url}/status`, { status: fresh.status ?? r.pick([null, 1, { phase: 'x' }]) }, { 'content-type': r.pick([MERGE_PATCH, SMP]) });
        default:
          return send(`subresource ${pick}`, r.pick(['GET', 'POST', 'PUT']), `${url}/${pick}`, r.chance(0.5) ? fresh : undefined);
      }
    };

    for (step = 0; step < STEPS; step++) {
      const target = known.length && r.chance(0.55) ? r.pick(known) : undefined;
      if (!target) {
        const info = r.pick(CREATABLE);
        const name = `f${seed}-${step}`;
        const body = randomResourceObject(r, schemaOf(info), apiVersionOf(info), info.kind, name);
        const query = randomQuery(r);
        const asApply = r.chance(0.15);
        const url = asApply ? `${collectionUrl(info)}/${name}?fieldManager=fuzz${r.chance(0.5) ? '&force=true' : ''}` : `${collectionUrl(info)}${query}`;
        const reply = asApply ? await send('apply-create', 'PATCH', url, body, { 'content-type': APPLY }) : await send('create', 'POST', url, ...encoded(body));
        if (reply && reply.status < 300 && !isDryRun(query) && !info.virtual && reply.json?.metadata?.name) {
          const k: Known = { info, url: `${collectionUrl(info)}/${reply.json.metadata.name}`, text: '' };
          known.push(k);
          await settle('create', k, reply, false);
        }
        continue;
      }
      const { info, url } = target;
      const current = JSON.parse(target.text) as Record<string, unknown>;
      const fresh = randomResourceObject(r, schemaOf(info), apiVersionOf(info), info.kind, (current.metadata as { name: string }).name);
      const query = randomQuery(r);
      const dryRun = isDryRun(query);
      const op = r.pick(['put', 'put-same', 'merge', 'json', 'smp', 'apply', 'status', 'delete', 'get-odd', 'raw', 'subresource', 'path']);
      let reply: Reply | undefined;
      switch (op) {
        case 'put':
          if (r.chance(0.7)) (fresh.metadata as Record<string, unknown>).resourceVersion = (current.metadata as Record<string, unknown>).resourceVersion;
          reply = await send(op, 'PUT', `${url}${query}`, fresh);
          break;
        case 'put-same':
          // The object as read, with one random field of a fresh one: mostly valid updates.
          reply = await send(op, 'PUT', `${url}${query}`, { ...current, ...Object.fromEntries(Object.entries(fresh).filter(([k]) => k !== 'metadata' && r.chance(0.3))) });
          break;
        case 'merge':
          reply = await send(op, 'PATCH', `${url}${query}`, randomMergePatch(r, fresh, false), { 'content-type': MERGE_PATCH });
          break;
        case 'smp':
          reply = await send(op, 'PATCH', `${url}${query}`, randomMergePatch(r, fresh, true), { 'content-type': SMP });
          break;
        case 'json':
          reply = await send(op, 'PATCH', `${url}${query}`, randomJsonPatch(r, current), { 'content-type': JSON_PATCH });
          break;
        case 'apply':
          reply = await send(op, 'PATCH', `${url}${query}${query ? '&' : '?'}fieldManager=fuzz-${r.int(3)}${r.chance(0.5) ? '&force=true' : ''}`, fresh, { 'content-type': APPLY });
          break;
        case 'status':
          reply = info.subresources.some((s) => s.name === 'status')
            ? await send(op, 'PUT', `${url}/status${query}`, { ...current, status: fresh.status ?? r.pick([null, {}, 'x']) })
            : await send(op, 'GET', `${url}/status`);
          break;
        case 'delete':
          reply = await send(op, 'DELETE', `${url}${query}`, r.chance(0.5) ? undefined : { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: r.pick(['Foreground', 'Background', 'Orphan', 'Bogus']), gracePeriodSeconds: r.pick([0, -1, 30, 'x']), preconditions: r.chance(0.3) ? { uid: 'nope' } : undefined });
          break;
        case 'raw': {
          const [method, at] = r.pick([['POST', collectionUrl(info)], ['PUT', url], ['PATCH', url]] as const);
          reply = await send(op, method, `${at}${query}`, randomRawBody(r), { 'content-type': r.pick(CONTENT_TYPES) });
          break;
        }
        case 'subresource':
          reply = await sendSubresource(info, url, fresh);
          break;
        case 'path': {
          // Odd paths, escapes and methods around the object's own URL.
          const segment = () => r.pick(['%zz', '%', '%2F', '..', '.', '', '~', 'status', 'scale', 'namespaces', NS, 'x'.repeat(300), '%00', 'watch', 'proxy', '%E6%97%A5']);
          const parts = url.split('/');
          parts[1 + r.int(parts.length - 1)] = segment();
          if (r.chance(0.5)) parts.push(segment());
          const path = `${parts.join('/')}${r.pick(['', '?', '?%zz=1', '?limit=1&limit=2', '?watch=true&resourceVersion=-1', '?labelSelector=%zz', '?fieldSelector=metadata.name%3D%3Dx%2Cx', '#frag'])}`;
          const method = r.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'FOO']);
          reply = await send(op, method, path, r.chance(0.5) ? fresh : undefined);
          // An odd path can name a collection (`nodes/` is `nodes`): a DELETE there marks or
          // removes every object of the kind, so what the others last read is read again.
          if (reply && reply.status < 300 && method !== 'GET' && method !== 'HEAD') {
            for (const k of known) {
              const again = await c.get(k.url);
              if (again.status === 200) k.text = again.text;
            }
          }
          break;
        }
        case 'get-odd': {
          const odd = r.pick(['?resourceVersion=0', '?resourceVersion=abc', '?resourceVersionMatch=Exact', '?export=true', '?pretty=1', '?watch=1&timeoutSeconds=0']);
          reply = await send(op, 'GET', `${url}${odd}`);
          const list = collectionUrl(info) + r.pick(['?limit=-1', '?limit=1&continue=garbage', '?labelSelector=a%20in%20(', '?fieldSelector=spec.x%3Dy', '?fieldSelector=metadata.name%3D', '?resourceVersion=1&resourceVersionMatch=Exact', '?limit=2', '?resourceVersion=0&limit=1']);
          await send('list', 'GET', list);
          break;
        }
      }
      // A raw body or a subresource write may change the object in ways its answer does not show (a Scale, an Eviction).
      await settle(op, target, op === 'subresource' || op === 'raw' || op === 'path' ? undefined : reply, dryRun || op === 'get-odd' || (op === 'status' && !info.subresources.some((s) => s.name === 'status')));
    }
    // Every collection still lists, and every namespace still reads.
    for (const info of CREATABLE) if (info.verbs.includes('list')) await send('final list', 'GET', collectionUrl(info));
    expect(problems.slice(0, 15)).toEqual([]);
  });
});
