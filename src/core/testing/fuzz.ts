// Test helper for the API fuzz test (api-fuzz.test.ts): a seeded random source and random
// objects built from the served kinds' OpenAPI schemas — mostly well-typed, with wrong types,
// odd strings and extreme numbers mixed in — plus random patches of every content type.
// Used only by *.test.ts files.
import { definitions, resolveRef, type SchemaNode } from '../schema';

/** A small seeded generator (mulberry32): the same seed gives the same run, so a failure replays. */
export class Rand {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

/** Strings that are valid for many fields, and strings that are valid for none. */
const STRINGS = [
  'a', 'web', 'x-1', 'nginx:1.25', 'app', 'TCP', 'UDP', 'Always', 'None', 'ClusterIP', 'NodePort', 'Exists', 'In', 'NotIn',
  '', ' ', 'UPPER', 'has space', '../x', '-a', 'a.', 'a/b', 'a'.repeat(70), 'b'.repeat(300), '日本', '\u0000', '\ud800', '\n',
  '1', '-1', '0', '1.5', '1e3', '100m', '1Gi', '0.5', '-1Gi', '1.23456789012345678901234567890', '9'.repeat(40) + 'Ki', 'Infinity', 'NaN',
  '2021-01-01T00:00:00Z', '2021-13-45T99:00:00Z', 'not-a-time', '10.0.0.1', '::1', '999.1.1.1', '10.0.0.0/8', '10.0.0.1/33',
  'http://x', '{"a":1}', 'null', 'true', '$patch', 'a=b', 'a in (b)', '!a', '*', 'system:masters', 'kubernetes.io/x',
];
/** Object.prototype's member names (`__proto__`, `constructor`, `toString`, ...): keys like any other to kube. */
const PROTO_KEYS = Object.getOwnPropertyNames(Object.prototype);
/** A key for a map or an unknown field: an ordinary string mostly, a prototype member's name sometimes. */
const keyOf = (r: Rand, ordinary: readonly string[]): string => (r.chance(0.2) ? r.pick(PROTO_KEYS) : r.pick(ordinary));
/** `obj[key] = value` that keeps `__proto__` an own key instead of replacing the prototype. */
function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
const NUMBERS = [0, 1, 2, 3, -1, 80, 65535, 65536, 2147483647, 2147483648, -2147483649, 9007199254740993, 1.5, -0.5, 1e21, 1e300];
/** Values of the wrong type for whatever they land on. */
const WRONG = [null, true, false, 0, -7, 'x', '', [], {}, [null], [[1]], { '': 1 }, { a: { b: { c: [] } } }, 1.5e10];

export interface FuzzOptions {
  /** Probability that a node is replaced by a value of the wrong type. */
  wrongType: number;
  /** Deepest nesting of generated objects. */
  maxDepth: number;
}

const DEFAULTS: FuzzOptions = { wrongType: 0.03, maxDepth: 7 };

/** A random value for `node` (a schema node of the built-in definitions). */
export function randomValue(r: Rand, node: SchemaNode, depth = 0, opts: FuzzOptions = DEFAULTS): unknown {
  if (r.chance(opts.wrongType)) return r.pick(WRONG);
  const schema = node.$ref ? resolveRef(node) : node;
  if (schema.enum && schema.enum.length && r.chance(0.8)) return r.pick(schema.enum);
  if (schema['x-kubernetes-int-or-string'] || schema.format === 'int-or-string') return r.chance(0.5) ? r.pick(NUMBERS) : r.pick(STRINGS);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'byte') return r.pick(['', 'aGVsbG8=', 'aGVsbG8', '!!!', 'YQ==', 'x'.repeat(12)]);
      if (schema.format === 'date-time') return r.pick(['2021-01-01T00:00:00Z', '2021-01-01T00:00:00.123456Z', 'yesterday', '', '2021-01-01T00:00:00+02:00']);
      return r.pick(STRINGS);
    case 'integer':
    case 'number':
      return r.chance(0.9) ? r.pick(NUMBERS) : r.pick(STRINGS);
    case 'boolean':
      return r.chance(0.9) ? r.chance(0.5) : r.pick(['true', 0, 1]);
    case 'array': {
      if (depth >= opts.maxDepth) return [];
      const n = r.pick([0, 1, 1, 1, 2, 3]);
      return Array.from({ length: n }, () => (schema.items ? randomValue(r, schema.items, depth + 1, opts) : r.pick(WRONG)));
    }
    default:
      return randomObject(r, schema, depth, opts);
  }
}

function randomObject(r: Rand, schema: SchemaNode, depth: number, opts: FuzzOptions): unknown {
  if (depth >= opts.maxDepth) return {};
  const out: Record<string, unknown> = {};
  const props = schema.properties;
  if (props) {
    const required = new Set(schema.required ?? []);
    // Fewer optional fields the deeper the node, so objects stay small but reach every level.
    const p = Math.max(0.1, 0.5 - depth * 0.06);
    for (const [key, child] of Object.entries(props)) {
      if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
      if (required.has(key) ? r.chance(0.9) : r.chance(p)) out[key] = randomValue(r, child, depth + 1, opts);
    }
  } else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const n = r.pick([0, 1, 2]);
    for (let i = 0; i < n; i++) put(out, keyOf(r, STRINGS), randomValue(r, schema.additionalProperties, depth + 1, opts));
  } else if (r.chance(0.3)) {
    // Free-form (RawExtension, JSON, preserve-unknown-fields): anything.
    put(out, keyOf(r, STRINGS), r.pick(WRONG));
  }
  if (r.chance(0.05)) put(out, keyOf(r, ['unknownField', 'x-extra', 'Spec']), r.pick(WRONG));
  return out;
}

/** Random object metadata: a valid unique name most of the time, odd labels and annotations now and then. */
export function randomMetadata(r: Rand, name: string): Record<string, unknown> {
  const meta: Record<string, unknown> = r.chance(0.92) ? { name } : r.chance(0.5) ? { generateName: r.pick(['g-', 'G', '', 'a'.repeat(300)]) } : { name: r.pick(STRINGS) };
  // Computed keys in a literal define own properties, `__proto__` included.
  if (r.chance(0.3)) meta.labels = { app: r.pick(['web', '', 'bad value', 'a'.repeat(64)]), [keyOf(r, ['k', 'a/b', 'x/', '/x', 'kubernetes.io/n'])]: 'v' };
  if (r.chance(0.2)) meta.annotations = { [keyOf(r, ['note', 'a/b', ''])]: r.pick(STRINGS) };
  if (r.chance(0.05)) meta.finalizers = [r.pick(['example.com/hold', 'bad finalizer', 'kubernetes', 'orphan'])];
  if (r.chance(0.04)) meta.resourceVersion = r.pick(['1', 'abc', '']);
  if (r.chance(0.04)) meta.uid = r.pick(['u-1', '']);
  if (r.chance(0.03)) meta.namespace = r.pick(['default', 'other', '']);
  if (r.chance(0.03)) meta.creationTimestamp = r.pick(['2021-01-01T00:00:00Z', 'x', null]);
  if (r.chance(0.03)) meta.managedFields = r.pick([[], [{ manager: 'm', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: {} }], [{ manager: 'm', operation: 'Bogus' }], [null]]);
  if (r.chance(0.03)) meta[r.pick(['labels', 'annotations', 'finalizers', 'name', 'ownerReferences'])] = r.pick(WRONG);
  return meta;
}

/** A random whole object of `schema` (a definition's name, or a CRD's schema) with apiVersion and kind, as a client would send it. */
export function randomResourceObject(r: Rand, schema: string | SchemaNode, apiVersion: string, kind: string, name: string): Record<string, unknown> {
  const body = randomObject(r, typeof schema === 'string' ? definitions[schema]! : schema, 1, DEFAULTS) as Record<string, unknown>;
  const obj: Record<string, unknown> = { apiVersion, kind, metadata: randomMetadata(r, name), ...body };
  if (r.chance(0.03)) obj.apiVersion = r.pick(['v9', '', 'apps/v1', 7]);
  if (r.chance(0.03)) obj.kind = r.pick(['Pod', '', 'Nope', null]);
  return obj;
}

/** The JSON pointers of every node of `value` (for JSON patches aimed at real paths). */
export function pointers(value: unknown, prefix = ''): string[] {
  const out = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pointers(v, `${prefix}/${i}`)));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pointers(v, `${prefix}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return out;
}

/** A random JSON patch against `current`: real paths mostly, bad ops and paths sometimes. */
export function randomJsonPatch(r: Rand, current: unknown): unknown {
  const paths = pointers(current);
  const n = 1 + r.int(3);
  const ops: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const path = r.chance(0.85) ? r.pick(paths) : r.chance(0.3) ? `${r.pick(['', '/metadata', '/metadata/labels', '/spec', '/data'])}/${r.pick(PROTO_KEYS)}${r.pick(['', '/x'])}` : r.pick(['/nope/x', '/metadata/labels/-', '/spec/x/0', '', '/', 'bad', '/metadata/~2']);
    const op = r.pick(['add', 'remove', 'replace', 'test', 'move', 'copy', 'bogus']);
    const value = r.chance(0.5) ? r.pick(WRONG) : r.pick(STRINGS);
    const step: Record<string, unknown> = { op, path };
    if (op === 'move' || op === 'copy') step.from = r.pick(paths);
    if (op !== 'remove' && op !== 'move' && op !== 'copy') step.value = value;
    if (r.chance(0.05)) delete step.path;
    ops.push(step);
  }
  return r.chance(0.05) ? r.pick(WRONG) : ops;
}

/** A random merge or strategic patch: a random partial object, with patch directives sometimes. */
export function randomMergePatch(r: Rand, fresh: Record<string, unknown>, strategic: boolean): unknown {
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fresh)) if (k !== 'apiVersion' && k !== 'kind' && r.chance(0.5)) put(patch, k, v);
  if (r.chance(0.2)) patch.metadata = { labels: { [keyOf(r, ['a', 'a/b', 'bad key'])]: r.pick([null, 'v', 3]) } };
  if (r.chance(0.25)) {
    // A prototype member's name as a key at the root or one level down, often holding an object
    // (what a merge that followed inherited members would merge into Object.prototype).
    const at = r.pick(['', 'metadata', 'spec']);
    const holder = at ? (patch[at] && typeof patch[at] === 'object' && !Array.isArray(patch[at]) ? (patch[at] as Record<string, unknown>) : {}) : patch;
    put(holder, r.chance(0.5) ? '__proto__' : r.pick(PROTO_KEYS), r.pick([{ polluted: 'yes' }, { polluted: { deeper: 'yes' } }, null, 'x']));
    if (at) put(patch, at, holder);
  }
  if (strategic && r.chance(0.3)) {
    const directive = r.pick(['$patch', '$retainKeys', '$deleteFromPrimitiveList/finalizers', '$setElementOrder/containers', '$setElementOrder/finalizers']);
    const target = (patch.spec && typeof patch.spec === 'object' && !Array.isArray(patch.spec) ? patch.spec : patch) as Record<string, unknown>;
    target[directive] = r.pick(['delete', 'replace', 'merge', 'bogus', [], [{ name: 'x' }], ['a'], null, {}]);
  }
  if (r.chance(0.05)) return r.pick(WRONG);
  return patch;
}

const encoder = new TextEncoder();

/** Bodies no client should send: deep nesting, alias bombs, stray bytes, odd numbers and escapes. */
export function randomRawBody(r: Rand): Uint8Array {
  const depth = r.pick([64, 1001, 10001, 100_000]);
  switch (r.int(14)) {
    case 0:
      return encoder.encode('['.repeat(depth) + ']'.repeat(depth));
    case 1:
      return encoder.encode('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
    case 2:
      return encoder.encode(`{"metadata":{"name":"deep"},"data":${'['.repeat(depth)}`);
    case 3: {
      // A YAML alias bomb: every level doubles the last.
      const levels = Array.from({ length: 30 }, (_, i) => (i === 0 ? 'l0: &l0 ["x","x"]' : `l${i}: &l${i} [*l${i - 1},*l${i - 1}]`));
      return encoder.encode(`${levels.join('\n')}\nmetadata: {name: bomb}\n`);
    }
    case 4:
      return Uint8Array.from({ length: 1 + r.int(64) }, () => r.int(256));
    case 5:
      return encoder.encode('\ufeff{"metadata":{"name":"bom"}}');
    case 6:
      return encoder.encode(r.pick(['', 'null', '[]', '1', '"x"', 'true', '{}', '1e999999', '-0', '{"metadata":null}', '{"metadata":{"name":"a","name":"b"}}']));
    case 7:
      return encoder.encode(`{"metadata":{"name":"${r.pick(['\\ud800', '\\u0000', '\\udc00\\ud800', 'a\\"b'])}"}}`);
    case 8:
      return encoder.encode('{"metadata":{"name":"trail"}} garbage');
    case 9:
      // The protobuf magic with nothing, or stray bytes, after it.
      return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...Array.from({ length: r.int(24) }, () => r.int(256))]);
    case 10:
      return encoder.encode(r.pick(['apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [unclosed\n', '--- \n---\n', 'a: b\n  c: d\n', '%YAML 9.9\n---\n{}', '!!binary x', '? [a]\n: b\n', 'metadata: {name: x, name: y}']));
    case 11:
      return encoder.encode(`{"metadata":{"name":"big"},"data":{"k":"${'x'.repeat(r.pick([1000, 3_200_000]))}"}}`);
    case 12:
      return encoder.encode(`[${Array.from({ length: r.pick([3, 10_001]) }, () => '{"op":"add","path":"/metadata/labels/a","value":"b"}').join(',')}]`);
    default:
      return encoder.encode(`{"metadata":{"name":"num"},"spec":{"replicas":${r.pick(['1e400', '-1e400', '0x10', '01', '1.', '.5', 'NaN', '99999999999999999999999'])}}}`);
  }
}

export const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/json-patch+json',
  'application/apply-patch+yaml',
  'text/plain',
  '',
  'application/json; charset=utf-16',
  'application/json;;',
  '*/*',
];

/** A CRD whose schema uses what custom resources can: defaults, nullable, int-or-string, list and map types, free-form fields, status and scale. */
export const FUZZ_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.fuzz.example.com' },
  spec: {
    group: 'fuzz.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size' }, { name: 'Mode', type: 'string', jsonPath: '.spec.mode' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['mode'],
                properties: {
                  mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
                  size: { type: 'integer', minimum: 0, maximum: 100, default: 1 },
                  replicas: { type: 'integer', format: 'int32' },
                  ratio: { type: 'number', nullable: true },
                  port: { 'x-kubernetes-int-or-string': true },
                  name: { type: 'string', pattern: '^[a-z]+$', maxLength: 10 },
                  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set', maxItems: 4 },
                  items: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name'],
                    items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string', default: 'v' } } },
                  },
                  labels: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'granular' },
                  blob: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  when: { type: 'string', format: 'date-time' },
                },
              },
              status: { type: 'object', properties: { replicas: { type: 'integer' }, phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};
