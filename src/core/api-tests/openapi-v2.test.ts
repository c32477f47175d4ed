// GET /openapi/v2 through the whole core: the Swagger 2.0 document kube-apiserver v1.23 serves
// (JSON by default, gnostic protobuf on request, gzip, ETag/304, 406), with served CRDs merged in
// and taken out again; and the OpenAPIV3 feature gate in front of /openapi/v3.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyBytes, type ApiBody } from '../meta/types';
import { openApiV2DocumentType } from '../server/openapi-v2-proto';
import { eventually, startTestServer, statusOf, type TestClient } from '../testing/api-server';

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

const bytesOf = (body: ApiBody): Uint8Array => (typeof body === 'string' ? new TextEncoder().encode(body) : bodyBytes(body as Uint8Array));

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size', 'note'],
                properties: {
                  size: { type: 'integer', minimum: 1 },
                  note: { type: 'string', nullable: true },
                  extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
          },
        },
      },
    ],
  },
};

let c: TestClient;
beforeAll(async () => {
  c = await startTestServer();
});
afterAll(async () => {
  await c?.close();
});

describe('/openapi/v2', () => {
  it('serves the Swagger 2.0 JSON by default, as http.ServeContent sniffs and kube-openapi tags it', async () => {
    const r = await c.get('/openapi/v2');
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['Etag']).toMatch(/^"[0-9A-F]{128}"$/);
    expect(r.headers['Vary']).toBe('Accept-Encoding, Accept');
    expect(r.headers['Last-Modified']).toMatch(/ GMT$/);
    expect(r.headers['Content-Encoding']).toBeUndefined();
    const doc = r.json;
    expect(doc.swagger).toBe('2.0');
    expect(doc.info.title).toBe('Kubernetes');
    expect(doc.securityDefinitions.BearerToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'authorization' });

    // Definitions carry the GVK kubectl looks kinds up by, and the patch strategies client-side apply merges with.
    expect(doc.definitions['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind']).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    const containers = doc.definitions['io.k8s.api.core.v1.PodSpec'].properties.containers;
    expect(containers).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' });

    // Every $ref resolves inside the document.
    const missing: string[] = [];
    JSON.stringify(doc, (key, value) => {
      // (JSONSchemaProps has a property named `$ref`: only string values are references.)
      if (key === '$ref' && typeof value === 'string' && !doc.definitions[String(value).replace('#/definitions/', '')]) missing.push(value);
      return value;
    });
    expect(missing).toEqual([]);
  });

  it('describes operations in v2 form: body parameter, inline dryRun, x-kubernetes-action and GVK', async () => {
    const doc = (await c.get('/openapi/v2')).json;
    const item = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}'];
    expect(item.parameters.map((p: any) => [p.name, p.in])).toEqual([
      ['name', 'path'],
      ['namespace', 'path'],
      ['pretty', 'query'],
    ]);
    const patch = item.patch;
    expect(patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml']);
    expect(patch.produces).toEqual(['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf']);
    expect(patch.schemes).toEqual(['https']);
    expect(patch.tags).toEqual(['apps_v1']);
    expect(patch.operationId).toBe('patchAppsV1NamespacedDeployment');
    expect(patch['x-kubernetes-action']).toBe('patch');
    expect(patch['x-kubernetes-group-version-kind']).toEqual({ group: 'apps', version: 'v1', kind: 'Deployment' });
    // kubectl 1.23 decides server-side dry-run support from an inline `dryRun` query parameter.
    expect(patch.parameters).toEqual([
      { name: 'body', in: 'body', required: true, schema: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } },
      { uniqueItems: true, type: 'string', name: 'dryRun', in: 'query' },
      { uniqueItems: true, type: 'string', name: 'fieldManager', in: 'query' },
      { uniqueItems: true, type: 'boolean', name: 'force', in: 'query' },
    ]);
    expect(patch.responses['200'].schema).toEqual({ $ref: '#/definitions/io.k8s.api.apps.v1.Deployment' });
    expect(doc.paths['/api/v1/namespaces/{namespace}/pods'].get.tags).toEqual(['core_v1']);
  });

  it('serves the gnostic protobuf Document that decodes back to the same document', async () => {
    const json = (await c.get('/openapi/v2')).json;
    const r = await c.get('/openapi/v2', { accept: PROTOBUF });
    expect(r.status).toBe(200);
    expect(r.headers['Content-Type']).toBe('application/octet-stream');
    const type = openApiV2DocumentType();
    const doc = type.toObject(type.decode(bytesOf(r.raw.body)), { defaults: false }) as any;
    expect(doc.swagger).toBe('2.0');
    expect(doc.info).toEqual({ title: 'Kubernetes', version: json.info.version });
    expect(doc.definitions.additionalProperties.map((d: any) => d.name)).toEqual(Object.keys(json.definitions));
    expect(doc.paths.path.map((p: any) => p.name)).toEqual(Object.keys(json.paths));

    const deployment = doc.definitions.additionalProperties.find((d: any) => d.name === 'io.k8s.api.apps.v1.Deployment').value;
    expect(deployment.type).toEqual({ value: ['object'] });
    expect(deployment.vendorExtension).toEqual([{ name: 'x-kubernetes-group-version-kind', value: { yaml: '- group: apps\n  kind: Deployment\n  version: v1\n' } }]);
    const spec = deployment.properties.additionalProperties.find((p: any) => p.name === 'spec').value;
    expect(spec).toEqual({ ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec' });

    const patch = doc.paths.path.find((p: any) => p.name === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}').value.patch;
    const dryRun = patch.parameters.map((p: any) => p.parameter?.nonBodyParameter?.queryParameterSubSchema).find((q: any) => q?.name === 'dryRun');
    expect(dryRun).toEqual({ in: 'query', name: 'dryRun', type: 'string', uniqueItems: true });
    expect(patch.vendorExtension).toContainEqual({ name: 'x-kubernetes-group-version-kind', value: { yaml: 'group: apps\nkind: Deployment\nversion: v1\n' } });
    expect(patch.parameters[0].parameter.bodyParameter).toEqual({ name: 'body', in: 'body', required: true, schema: { ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });

    // Each format has its own ETag (the hash of its own bytes).
    expect(r.headers['Etag']).toMatch(/^"[0-9A-F]{128}"$/);
    expect(r.headers['Etag']).not.toBe((await c.get('/openapi/v2')).headers['Etag']);
  });

  it('negotiates as goautoneg orders Accept: by q, wildcards last; anything else is a bodiless 406', async () => {
    expect((await c.get('/openapi/v2', { accept: `application/json;q=0.5, ${PROTOBUF}` })).headers['Content-Type']).toBe('application/octet-stream');
    expect((await c.get('/openapi/v2', { accept: '*/*' })).headers['Content-Type']).toBe('text/plain; charset=utf-8');
    expect((await c.get('/openapi/v2', { accept: 'application/*' })).json.swagger).toBe('2.0');
    const refused = await c.get('/openapi/v2', { accept: 'application/yaml' });
    expect(refused.status).toBe(406);
    expect(refused.text).toBe('');
    expect((await c.get('/openapi/v2', { accept: 'application/vnd.kubernetes.protobuf, text/html' })).status).toBe(406);
  });

  it('gzips for a client that accepts it, and only then', async () => {
    const plain = await c.get('/openapi/v2', { accept: PROTOBUF });
    const zipped = await c.get('/openapi/v2', { accept: PROTOBUF, 'accept-encoding': 'gzip, deflate' });
    expect(zipped.headers['Content-Encoding']).toBe('gzip');
    expect(zipped.headers['Etag']).toBe(plain.headers['Etag']);
    const unzipped = gunzipSync(bytesOf(zipped.raw.body));
    expect(unzipped.equals(Buffer.from(bytesOf(plain.raw.body)))).toBe(true);
    expect((await c.get('/openapi/v2', { 'accept-encoding': 'gzip;q=0' })).headers['Content-Encoding']).toBeUndefined();
    expect((await c.get('/openapi/v2', { 'accept-encoding': 'br' })).headers['Content-Encoding']).toBeUndefined();
  });

  it('answers 304 Not Modified to a matching If-None-Match or a later If-Modified-Since', async () => {
    const first = await c.get('/openapi/v2');
    const etag = first.headers['Etag'];
    const cached = await c.get('/openapi/v2', { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.raw.body).toBeUndefined();
    expect(cached.headers['Etag']).toBe(etag);
    expect(cached.headers['Content-Type']).toBeUndefined();
    expect(cached.headers['Last-Modified']).toBeUndefined();
    expect((await c.get('/openapi/v2', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await c.get('/openapi/v2', { 'if-none-match': '"other"' })).status).toBe(200);
    // The JSON ETag does not validate the protobuf form.
    expect((await c.get('/openapi/v2', { accept: PROTOBUF, 'if-none-match': etag })).status).toBe(200);
    expect((await c.get('/openapi/v2', { 'if-modified-since': first.headers['Last-Modified'] })).status).toBe(304);
    expect((await c.get('/openapi/v2', { 'if-modified-since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status).toBe(200);
  });

  it('answers HEAD with the headers only', async () => {
    const r = await c.request('HEAD', '/openapi/v2');
    expect(r.status).toBe(200);
    expect(r.raw.body).toBeUndefined();
    expect(r.headers['Etag']).toMatch(/^"[0-9A-F]{128}"$/);
  });

  it('adds a served CRD (definitions and paths, converted for kubectl) and drops it when the CRD goes', async () => {
    const before = await c.get('/openapi/v2');
    expect(before.json.definitions['com.example.v1.Widget']).toBeUndefined();
    expect((await c.post(CRDS, widgetCrd)).status).toBe(201);
    const doc = await eventually(async () => {
      const r = await c.get('/openapi/v2');
      return r.json.definitions['com.example.v1.Widget'] ? r : undefined;
    });
    expect(doc.headers['Etag']).not.toBe(before.headers['Etag']);
    // A stale ETag gets the new document.
    expect((await c.get('/openapi/v2', { 'if-none-match': before.headers['Etag'] })).status).toBe(200);

    const widget = doc.json.definitions['com.example.v1.Widget'];
    expect(widget['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'Widget', version: 'v1' }]);
    expect(widget.properties.metadata).toEqual({ $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' });
    expect(widget.properties.apiVersion).toEqual({ type: 'string' });
    const spec = widget.properties.spec;
    // nullable: no type, and no longer required; preserve-unknown-fields object: no type.
    expect(spec.required).toEqual(['size']);
    expect(spec.properties.note).toEqual({});
    expect(spec.properties.extra).toEqual({ 'x-kubernetes-preserve-unknown-fields': true });
    expect(spec.properties.size).toEqual({ type: 'integer', minimum: 1 });
    expect(doc.json.definitions['com.example.v1.WidgetList']['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'WidgetList', version: 'v1' }]);

    const item = doc.json.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'];
    expect(item.patch.consumes).toEqual(['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    expect(item.patch.operationId).toBe('patchExampleComV1NamespacedWidget');
    expect(item.patch.tags).toEqual(['exampleCom_v1']);
    expect(item.put.consumes).toEqual(['application/json', 'application/yaml']);
    expect(doc.json.paths['/apis/example.com/v1/namespaces/{namespace}/widgets/{name}/status'].patch['x-kubernetes-action']).toBe('patch');

    // The protobuf form has it too.
    const type = openApiV2DocumentType();
    const pb = type.toObject(type.decode(bytesOf((await c.get('/openapi/v2', { accept: PROTOBUF })).raw.body))) as any;
    expect(pb.definitions.additionalProperties.map((d: any) => d.name)).toContain('com.example.v1.Widget');

    expect((await c.del(`${CRDS}/widgets.example.com`)).status).toBe(200);
    await eventually(async () => ((await c.get('/openapi/v2')).json.definitions['com.example.v1.Widget'] ? undefined : true));
  });
});

describe('/openapi/v2 with --runtime-config', () => {
  it('lists only the served group/versions', async () => {
    const narrowed = await startTestServer({ runtimeConfig: 'batch/v1beta1=false' });
    try {
      const doc = (await narrowed.get('/openapi/v2')).json;
      expect(Object.keys(doc.paths).some((p) => p.startsWith('/apis/batch/v1beta1/'))).toBe(false);
      expect(doc.definitions['io.k8s.api.batch.v1beta1.CronJob']).toBeUndefined();
      expect(doc.paths['/apis/batch/v1/namespaces/{namespace}/cronjobs']).toBeDefined();
    } finally {
      await narrowed.close();
    }
  });
});

describe('the OpenAPIV3 feature gate', () => {
  it('is on by default here: /openapi/v3 is served', async () => {
    expect((await c.get('/openapi/v3')).status).toBe(200);
    expect((await c.get('/openapi/v3/api/v1')).status).toBe(200);
  });

  it('off, /openapi/v3 answers 404 as v1.23 does while /openapi/v2 stays', async () => {
    const off = await startTestServer({ featureGates: 'OpenAPIV3=false' });
    try {
      for (const path of ['/openapi/v3', '/openapi/v3/', '/openapi/v3/api/v1', '/openapi/v3/apis/apps/v1?hash=x']) {
        const r = await off.get(path);
        expect(r.status).toBe(404);
        expect(statusOf(r)).toMatchObject({ reason: 'NotFound', message: 'the server could not find the requested resource' });
      }
      expect((await off.get('/openapi/v2')).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
