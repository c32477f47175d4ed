import { describe, expect, it } from 'vitest';
import { scanJson } from '../../codec/json-scan';
import { parseYaml, yamlDuplicateKeyErrors } from '../../codec/yaml';
import { applyDirective, checkFields, duplicateFieldErrors, parseDirective, strictDecodingErrorText } from './strict';
import { OBJECT_META_DEFINITION, type SchemaNode } from './types';

// A trimmed Deployment schema in the shape of the OpenAPI v2 definitions.
const s = (type: string): SchemaNode => ({ type });
const ref = (name: string): SchemaNode => ({ $ref: `#/definitions/${name}` });
const definitions: Record<string, SchemaNode> = {
  Deployment: { type: 'object', properties: { apiVersion: s('string'), kind: s('string'), metadata: ref('ObjectMeta'), spec: ref('DeploymentSpec') } },
  ObjectMeta: { type: 'object', properties: { name: s('string'), labels: { type: 'object', additionalProperties: s('string') }, managedFields: { type: 'array', items: ref('ManagedFieldsEntry') } } },
  ManagedFieldsEntry: { type: 'object', properties: { manager: s('string'), fieldsV1: ref('FieldsV1') } },
  FieldsV1: { type: 'object' },
  DeploymentSpec: {
    type: 'object',
    properties: { replicas: s('integer'), paused: s('boolean'), selector: ref('LabelSelector'), template: ref('PodTemplateSpec') },
  },
  LabelSelector: { type: 'object', properties: { matchLabels: { type: 'object', additionalProperties: s('string') } } },
  PodTemplateSpec: { type: 'object', properties: { metadata: ref('ObjectMeta'), spec: { allOf: [ref('PodSpec')] } } },
  PodSpec: { type: 'object', properties: { containers: { type: 'array', items: ref('Container') } } },
  Container: { type: 'object', properties: { name: s('string'), image: s('string'), imagePullPolicy: s('string') } },
};

// The body kube's own field-validation test posts.
const invalidBody = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": { "name": "dupename", "name": "d1", "labels": {"app": "nginx"}, "unknownMeta": "metaVal" },
  "spec": {
    "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true, "paused": false,
    "selector": { "matchLabels": { "app": "nginx" } },
    "template": { "metadata": { "labels": { "app": "nginx" } },
      "spec": { "containers": [{ "name": "nginx", "image": "nginx:latest", "unknownNested": "val1", "imagePullPolicy": "Always", "imagePullPolicy": "Never" }] } }
  }
}`;

const typed = { definitions, root: 'Deployment' };

describe('checkFields (built-in kinds)', () => {
  it('reports unknown and duplicate fields in document order', () => {
    const r = checkFields({ node: scanJson(invalidBody) }, typed);
    expect(strictDecodingErrorText(r)).toBe(
      'strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].unknownNested", duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    );
    expect(r.value).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd1', labels: { app: 'nginx' } },
      spec: { paused: false, selector: { matchLabels: { app: 'nginx' } }, template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:latest', imagePullPolicy: 'Never' }] } } },
    });
  });

  it('accepts free-form objects and map keys', () => {
    const r = checkFields({ value: { metadata: { labels: { anything: 'x' }, managedFields: [{ manager: 'm', fieldsV1: { 'f:x': {} } }] } } }, typed);
    expect(r.errors).toEqual([]);
  });

  it('applies directives', () => {
    const r = checkFields({ node: scanJson('{"spec":{"foo":1}}') }, typed);
    expect(applyDirective(r, 'Strict').error).toBe('strict decoding error: unknown field "spec.foo"');
    expect(applyDirective(r, 'Warn')).toEqual({ value: { spec: {} }, warnings: ['unknown field "spec.foo"'] });
    expect(applyDirective(r, 'Ignore')).toEqual({ value: { spec: {} }, warnings: [] });
    expect(parseDirective(undefined)).toBe('Warn');
    expect(parseDirective('Bogus')).toBeNull();
  });

  it('orders YAML bodies like kube (duplicates from go-yaml first, keys sorted)', () => {
    const yaml = [
      'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: dupename', '  name: d1', '  unknownMeta: metaVal', 'spec:', '  unknown1: val1',
      '  unknownDupe: a', '  unknownDupe: b', '  template:', '    spec:', '      containers:', '      - name: nginx', '        unknownNested: v', '',
    ].join('\n');
    const parsed = parseYaml(yaml);
    if (!parsed.ok) throw new Error(parsed.message);
    const r = checkFields({ value: parsed.value, yamlDuplicates: yamlDuplicateKeyErrors(yaml) }, typed);
    expect(strictDecodingErrorText(r)).toBe(
      'strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 10: key "unknownDupe" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.template.spec.containers[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe"',
    );
    expect(applyDirective(r, 'Warn').warnings[0]).toBe('line 5: key "name" already set in map');
  });
});

describe('checkFields (custom resources)', () => {
  const crdSchema: SchemaNode = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          knownField1: s('string'),
          free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          bare: { type: 'object' },
          embeddedObj: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { apiVersion: s('string'), kind: s('string'), metadata: s('object') } },
          ports: { type: 'array', items: { type: 'object', properties: { containerPort: s('integer'), hostPort: s('integer'), name: s('string'), protocol: s('string') } } },
        },
      },
    },
  };
  const body = `{"apiVersion":"example.com/v1","kind":"W","metadata":{"name":"a","name":"b","unknownMeta":"x"},
    "spec":{"unknown1":"v","unknownDupe":"a","unknownDupe":"b","knownField1":"1","knownField1":"2",
      "ports":[{"name":"p","containerPort":1,"hostPort":1,"hostPort":2,"unknownNested":"v"}],
      "free":{"anything":{"goes":1}},"bare":{"x":1},
      "embeddedObj":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","unknownEmbeddedMeta":"f"}}}}`;

  it('orders duplicates, metadata, pruned and embedded-metadata fields like the CR handler', () => {
    const r = checkFields({ node: scanJson(body) }, { root: crdSchema, custom: true });
    expect(r.errors).toEqual([
      'duplicate field "metadata.name"',
      'duplicate field "spec.unknownDupe"',
      'duplicate field "spec.knownField1"',
      'duplicate field "spec.ports[0].hostPort"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.bare.x"',
      'unknown field "spec.ports[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta"',
    ]);
    const v = r.value as { spec: Record<string, unknown> };
    expect(v.spec.free).toEqual({ anything: { goes: 1 } });
    expect(v.spec.bare).toEqual({});
    expect(v.spec.knownField1).toBe('2');
  });
});

describe('checkFields on the metadata of a custom object', () => {
  it('keeps managedFields whole: metadata decodes as the typed ObjectMeta, where fieldsV1 is free-form', () => {
    const root: SchemaNode = { type: 'object', properties: { spec: { type: 'object', properties: { tags: { type: 'array', items: s('string') } } } } };
    const obj = { apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'a', managedFields: [{ manager: 'm', fieldsV1: { 'f:spec': { 'f:tags': {} } } }] }, spec: { tags: ['x'], bogus: 1 } };
    // The typed ObjectMeta the walker uses is looked up by its full definition name.
    const full = { definitions: { ...definitions, [OBJECT_META_DEFINITION]: definitions.ObjectMeta! }, root, custom: true };
    for (const input of [{ value: JSON.parse(JSON.stringify(obj)) }, { node: scanJson(JSON.stringify(obj)) }]) {
      const r = checkFields(input, full);
      expect(r.errors).toEqual(['unknown field "spec.bogus"']);
      expect((r.value as typeof obj).metadata.managedFields[0]!.fieldsV1).toEqual({ 'f:spec': { 'f:tags': {} } });
    }
  });
});

describe('duplicateFieldErrors', () => {
  it('finds repeated keys with paths', () => {
    expect(duplicateFieldErrors(scanJson('{"spec":{"a":1,"a":2,"l":[{"b":1,"b":2}]}}'))).toEqual(['duplicate field "spec.a"', 'duplicate field "spec.l[0].b"']);
  });
});
