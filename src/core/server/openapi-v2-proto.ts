// `/openapi/v2` as protobuf (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`): the
// gnostic `openapi.v2.Document` message that kube-openapi marshals and kubectl 1.23–1.28 decode.
// The messages are declared here from gnostic's OpenAPIv2.proto field numbers — only those this
// server writes — and encoded with protobufjs reflection. Extension values, defaults and enums
// travel as YAML text in `Any.yaml`, as gnostic's compiler stores them.
import protobuf from 'protobufjs/light.js';
import { toYaml } from '../codec/yaml';

type Json = Record<string, unknown>;

/** `[number, type]` or `[number, type, 'repeated']`. */
type FieldSpec = [number, string] | [number, string, 'repeated'];

function message(fields: Record<string, FieldSpec>, oneof?: string[]): Json {
  const out: Json = {
    fields: Object.fromEntries(Object.entries(fields).map(([name, [id, type, rule]]) => [name, rule ? { id, type, rule } : { id, type }])),
  };
  if (oneof) out.oneofs = { oneof: { oneof } };
  return out;
}

const ext = (id: number): FieldSpec => [id, 'NamedAny', 'repeated'];

/** Parameter sub-schemas (query, path, header) share their leading fields; only the numbers differ. */
function nonBodySubSchema(hasAllowEmpty: boolean): Json {
  const shift = hasAllowEmpty ? 1 : 0;
  return message({
    required: [1, 'bool'],
    in: [2, 'string'],
    description: [3, 'string'],
    name: [4, 'string'],
    ...(hasAllowEmpty ? { allowEmptyValue: [5, 'bool'] as FieldSpec } : {}),
    type: [5 + shift, 'string'],
    format: [6 + shift, 'string'],
    uniqueItems: [19 + shift, 'bool'],
    vendorExtension: ext(22 + shift),
  });
}

const DESCRIPTOR = {
  nested: {
    google: { nested: { protobuf: { nested: { Any: message({ typeUrl: [1, 'string'], value: [2, 'bytes'] }) } } } },
    openapi: {
      nested: {
        v2: {
          nested: {
            AdditionalPropertiesItem: message({ schema: [1, 'Schema'], boolean: [2, 'bool'] }, ['schema', 'boolean']),
            Any: message({ value: [1, 'google.protobuf.Any'], yaml: [2, 'string'] }),
            ApiKeySecurity: message({ type: [1, 'string'], name: [2, 'string'], in: [3, 'string'], description: [4, 'string'], vendorExtension: ext(5) }),
            BodyParameter: message({ description: [1, 'string'], name: [2, 'string'], in: [3, 'string'], required: [4, 'bool'], schema: [5, 'Schema'], vendorExtension: ext(6) }),
            Definitions: message({ additionalProperties: [1, 'NamedSchema', 'repeated'] }),
            Document: message({
              swagger: [1, 'string'],
              info: [2, 'Info'],
              host: [3, 'string'],
              basePath: [4, 'string'],
              schemes: [5, 'string', 'repeated'],
              consumes: [6, 'string', 'repeated'],
              produces: [7, 'string', 'repeated'],
              paths: [8, 'Paths'],
              definitions: [9, 'Definitions'],
              security: [12, 'SecurityRequirement', 'repeated'],
              securityDefinitions: [13, 'SecurityDefinitions'],
              vendorExtension: ext(16),
            }),
            HeaderParameterSubSchema: nonBodySubSchema(false),
            Info: message({ title: [1, 'string'], version: [2, 'string'], description: [3, 'string'], vendorExtension: ext(7) }),
            ItemsItem: message({ schema: [1, 'Schema', 'repeated'] }),
            JsonReference: message({ ref: [1, 'string'], description: [2, 'string'] }),
            NamedAny: message({ name: [1, 'string'], value: [2, 'Any'] }),
            NamedPathItem: message({ name: [1, 'string'], value: [2, 'PathItem'] }),
            NamedResponseValue: message({ name: [1, 'string'], value: [2, 'ResponseValue'] }),
            NamedSchema: message({ name: [1, 'string'], value: [2, 'Schema'] }),
            NamedSecurityDefinitionsItem: message({ name: [1, 'string'], value: [2, 'SecurityDefinitionsItem'] }),
            NamedStringArray: message({ name: [1, 'string'], value: [2, 'StringArray'] }),
            NonBodyParameter: message(
              { headerParameterSubSchema: [1, 'HeaderParameterSubSchema'], queryParameterSubSchema: [3, 'QueryParameterSubSchema'], pathParameterSubSchema: [4, 'PathParameterSubSchema'] },
              ['headerParameterSubSchema', 'queryParameterSubSchema', 'pathParameterSubSchema'],
            ),
            Operation: message({
              tags: [1, 'string', 'repeated'],
              summary: [2, 'string'],
              description: [3, 'string'],
              operationId: [5, 'string'],
              produces: [6, 'string', 'repeated'],
              consumes: [7, 'string', 'repeated'],
              parameters: [8, 'ParametersItem', 'repeated'],
              responses: [9, 'Responses'],
              schemes: [10, 'string', 'repeated'],
              deprecated: [11, 'bool'],
              vendorExtension: ext(13),
            }),
            Parameter: message({ bodyParameter: [1, 'BodyParameter'], nonBodyParameter: [2, 'NonBodyParameter'] }, ['bodyParameter', 'nonBodyParameter']),
            ParametersItem: message({ parameter: [1, 'Parameter'], jsonReference: [2, 'JsonReference'] }, ['parameter', 'jsonReference']),
            PathItem: message({
              ref: [1, 'string'],
              get: [2, 'Operation'],
              put: [3, 'Operation'],
              post: [4, 'Operation'],
              delete: [5, 'Operation'],
              options: [6, 'Operation'],
              head: [7, 'Operation'],
              patch: [8, 'Operation'],
              parameters: [9, 'ParametersItem', 'repeated'],
              vendorExtension: ext(10),
            }),
            PathParameterSubSchema: nonBodySubSchema(false),
            Paths: message({ vendorExtension: ext(1), path: [2, 'NamedPathItem', 'repeated'] }),
            Properties: message({ additionalProperties: [1, 'NamedSchema', 'repeated'] }),
            QueryParameterSubSchema: nonBodySubSchema(true),
            Response: message({ description: [1, 'string'], schema: [2, 'SchemaItem'], vendorExtension: ext(5) }),
            ResponseValue: message({ response: [1, 'Response'], jsonReference: [2, 'JsonReference'] }, ['response', 'jsonReference']),
            Responses: message({ responseCode: [1, 'NamedResponseValue', 'repeated'], vendorExtension: ext(2) }),
            Schema: message({
              ref: [1, 'string'],
              format: [2, 'string'],
              title: [3, 'string'],
              description: [4, 'string'],
              default: [5, 'Any'],
              multipleOf: [6, 'double'],
              maximum: [7, 'double'],
              exclusiveMaximum: [8, 'bool'],
              minimum: [9, 'double'],
              exclusiveMinimum: [10, 'bool'],
              maxLength: [11, 'int64'],
              minLength: [12, 'int64'],
              pattern: [13, 'string'],
              maxItems: [14, 'int64'],
              minItems: [15, 'int64'],
              uniqueItems: [16, 'bool'],
              maxProperties: [17, 'int64'],
              minProperties: [18, 'int64'],
              required: [19, 'string', 'repeated'],
              enum: [20, 'Any', 'repeated'],
              additionalProperties: [21, 'AdditionalPropertiesItem'],
              type: [22, 'TypeItem'],
              items: [23, 'ItemsItem'],
              allOf: [24, 'Schema', 'repeated'],
              properties: [25, 'Properties'],
              discriminator: [26, 'string'],
              readOnly: [27, 'bool'],
              example: [30, 'Any'],
              vendorExtension: ext(31),
            }),
            SchemaItem: message({ schema: [1, 'Schema'] }, ['schema']),
            SecurityDefinitions: message({ additionalProperties: [1, 'NamedSecurityDefinitionsItem', 'repeated'] }),
            SecurityDefinitionsItem: message({ apiKeySecurity: [2, 'ApiKeySecurity'] }, ['apiKeySecurity']),
            SecurityRequirement: message({ additionalProperties: [1, 'NamedStringArray', 'repeated'] }),
            StringArray: message({ value: [1, 'string', 'repeated'] }),
            TypeItem: message({ value: [1, 'string', 'repeated'] }),
          },
        },
      },
    },
  },
};

let documentType: protobuf.Type | undefined;

/** The `openapi.v2.Document` message type (built on first use). */
export function openApiV2DocumentType(): protobuf.Type {
  documentType ??= protobuf.Root.fromJSON(DESCRIPTOR as protobuf.INamespace).lookupType('openapi.v2.Document');
  return documentType;
}

// ---------------------------------------------------------------------------------------------
// JSON document → message objects (field names as declared above).

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const anyOf = (value: unknown): Json => ({ yaml: toYaml(value) });

function vendorExtensions(node: Json): Json[] {
  const out: Json[] = [];
  for (const [key, value] of Object.entries(node)) if (key.startsWith('x-')) out.push({ name: key, value: anyOf(value) });
  return out;
}

/** Copies the set (non-zero) scalar fields: proto3 writes nothing for a zero value, nor does Go. */
function scalars(node: Json, names: readonly string[], into: Json): void {
  for (const name of names) {
    const value = node[name];
    if (value === undefined || value === null || value === '' || value === false || value === 0) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    into[name] = value;
  }
}

const SCHEMA_SCALARS = [
  'format',
  'title',
  'description',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'required',
  'discriminator',
  'readOnly',
] as const;

function schemaMessage(node: Json): Json {
  const out: Json = {};
  if (typeof node.$ref === 'string') out.ref = node.$ref;
  scalars(node, SCHEMA_SCALARS, out);
  if (node.default !== undefined) out.default = anyOf(node.default);
  if (Array.isArray(node.enum)) out.enum = node.enum.map(anyOf);
  if (isObject(node.additionalProperties)) out.additionalProperties = { schema: schemaMessage(node.additionalProperties) };
  else if (typeof node.additionalProperties === 'boolean') out.additionalProperties = { boolean: node.additionalProperties };
  if (typeof node.type === 'string') out.type = { value: [node.type] };
  else if (Array.isArray(node.type)) out.type = { value: node.type };
  if (Array.isArray(node.items)) out.items = { schema: (node.items as Json[]).map(schemaMessage) };
  else if (isObject(node.items)) out.items = { schema: [schemaMessage(node.items)] };
  if (Array.isArray(node.allOf)) out.allOf = (node.allOf as Json[]).map(schemaMessage);
  if (isObject(node.properties)) {
    out.properties = { additionalProperties: Object.entries(node.properties).map(([name, value]) => ({ name, value: schemaMessage(value as Json) })) };
  }
  if (node.example !== undefined) out.example = anyOf(node.example);
  const extensions = vendorExtensions(node);
  if (extensions.length) out.vendorExtension = extensions;
  return out;
}

function parameterMessage(p: Json): Json {
  if (p.in === 'body') {
    const body: Json = {};
    scalars(p, ['description', 'name', 'in', 'required'], body);
    if (isObject(p.schema)) body.schema = schemaMessage(p.schema);
    return { parameter: { bodyParameter: body } };
  }
  const sub: Json = {};
  scalars(p, ['required', 'in', 'description', 'name', 'type', 'format', 'uniqueItems'], sub);
  const extensions = vendorExtensions(p);
  if (extensions.length) sub.vendorExtension = extensions;
  const which = p.in === 'path' ? 'pathParameterSubSchema' : p.in === 'header' ? 'headerParameterSubSchema' : 'queryParameterSubSchema';
  return { parameter: { nonBodyParameter: { [which]: sub } } };
}

function operationMessage(op: Json): Json {
  const out: Json = {};
  scalars(op, ['tags', 'summary', 'description', 'operationId', 'produces', 'consumes'], out);
  if (Array.isArray(op.parameters)) out.parameters = (op.parameters as Json[]).map(parameterMessage);
  if (isObject(op.responses)) {
    out.responses = {
      responseCode: Object.entries(op.responses).map(([code, r]) => {
        const response: Json = {};
        const rj = r as Json;
        scalars(rj, ['description'], response);
        if (isObject(rj.schema)) response.schema = { schema: schemaMessage(rj.schema) };
        return { name: code, value: { response } };
      }),
    };
  }
  scalars(op, ['schemes', 'deprecated'], out);
  const extensions = vendorExtensions(op);
  if (extensions.length) out.vendorExtension = extensions;
  return out;
}

const PATH_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

function documentMessage(doc: Json): Json {
  const out: Json = {};
  scalars(doc, ['swagger'], out);
  if (isObject(doc.info)) {
    const info: Json = {};
    scalars(doc.info, ['title', 'version', 'description'], info);
    out.info = info;
  }
  if (isObject(doc.paths)) {
    out.paths = {
      path: Object.entries(doc.paths).map(([name, item]) => {
        const value: Json = {};
        const ij = item as Json;
        for (const method of PATH_METHODS) if (isObject(ij[method])) value[method] = operationMessage(ij[method] as Json);
        if (Array.isArray(ij.parameters)) value.parameters = (ij.parameters as Json[]).map(parameterMessage);
        return { name, value };
      }),
    };
  }
  if (isObject(doc.definitions)) {
    out.definitions = { additionalProperties: Object.entries(doc.definitions).map(([name, s]) => ({ name, value: schemaMessage(s as Json) })) };
  }
  if (Array.isArray(doc.security)) {
    out.security = (doc.security as Json[]).map((req) => ({
      additionalProperties: Object.entries(req).map(([name, scopes]) => ({ name, value: { value: scopes } })),
    }));
  }
  if (isObject(doc.securityDefinitions)) {
    out.securityDefinitions = {
      additionalProperties: Object.entries(doc.securityDefinitions).map(([name, def]) => {
        const apiKey: Json = {};
        scalars(def as Json, ['type', 'name', 'in', 'description'], apiKey);
        return { name, value: { apiKeySecurity: apiKey } };
      }),
    };
  }
  return out;
}

/** Encodes the Swagger 2.0 JSON text as the gnostic Document message. */
export function swaggerToProtobuf(swaggerJson: string): Uint8Array {
  const type = openApiV2DocumentType();
  return type.encode(type.fromObject(documentMessage(JSON.parse(swaggerJson) as Json))).finish();
}
