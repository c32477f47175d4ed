#!/usr/bin/env node
// Generates src/core/schema/generated/proto.json: the protobuf message descriptors the product's
// `application/vnd.kubernetes.protobuf` codec needs, from the declaration-only `generated.proto`
// files in ../shared/k8s-proto (v1.34 for current groups, v1.23 for betas later removed).
// Output is committed; the product never reads ../shared at run time.
//
//   node scripts/tools.mjs     # once: unpacks the real kubectl/helm binaries into .tools/bin
//   node scripts/gen-proto.mjs
//
// Three facts the .proto files do not carry are merged in:
// 1. Pointer-ness. Every field is declared `optional` (proto2), so the files cannot tell a Go
//    `*int32` from an `int32`. The gogo descriptors compiled into the real kubectl/helm binaries
//    can: go-to-protobuf marks every non-pointer field `(gogoproto.nullable) = false`. We scan
//    the binaries for their gzipped FileDescriptorProtos and read that option per field.
// 2. JSON names. Proto names equal JSON names except a few (`uID` is JSON `uid`); the OpenAPI
//    definitions in ../shared/k8s-openapi give the JSON spelling.
// 3. Which apiVersion/kind each top-level message serves, from the OpenAPI
//    `x-kubernetes-group-version-kind` lists (plus a package → group table for groups newer
//    than that OpenAPI document).
//
// Output shape (minified):
//   { "names": [fullName...],                  // message index → full protobuf name
//     "messages": [[field...]...],             // same index; field = [jsonName, number, type, flags, mapKey?]
//     "kinds": { "<apiVersion>": { "<Kind>": messageIndex } } }
//   type: a message index (number) or a scalar name ("string", "int32", "int64", "bool", "bytes", ...)
//   flags: 1 repeated, 2 map (type = value type, mapKey = key scalar), 4 pointer (Go nullable),
//          8 inline (embedded Go struct: its fields sit in the parent's JSON object)
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { sharedDir } from './shared-dir.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const protoRoot = join(sharedDir(repoRoot), 'k8s-proto');
const openapiDir = join(sharedDir(repoRoot), 'k8s-openapi');
const outFile = join(repoRoot, 'src', 'core', 'schema', 'generated', 'proto.json');
const BINARIES = [join(repoRoot, '.tools', 'bin', 'kubectl'), join(repoRoot, '.tools', 'bin', 'helm')];

const FLAG_REPEATED = 1;
const FLAG_MAP = 2;
const FLAG_POINTER = 4;
const FLAG_INLINE = 8;

// ---------------------------------------------------------------------------------------------
// 1. The .proto declarations.

function listProtoFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...listProtoFiles(full));
    else if (entry.endsWith('.proto')) out.push(full);
  }
  return out;
}

function loadVersion(version) {
  const base = join(protoRoot, version);
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(base, target));
  root.loadSync(listProtoFiles(base).map((f) => relative(base, f)), { keepCase: true });
  root.resolveAll();
  return root;
}

/** fullName (no leading dot) → protobufjs Type, for every message of one root. */
function collectTypes(ns, out = new Map()) {
  for (const nested of ns.nestedArray) {
    if (nested instanceof protobuf.Type) out.set(nested.fullName.slice(1), nested);
    if (nested.nestedArray) collectTypes(nested, out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// 2. Pointer-ness from the gogo descriptors embedded in the Go binaries.

/** Minimal protobuf wire reader: yields [fieldNumber, wireType, value] (value: number | Buffer). */
function* readFields(buf) {
  let pos = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = buf[pos++];
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
    }
  };
  while (pos < buf.length) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (wire === 0) yield [field, wire, varint()];
    else if (wire === 2) {
      const len = varint();
      yield [field, wire, buf.subarray(pos, pos + len)];
      pos += len;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

const GOGO_NULLABLE = 65001;

/** Adds "<message>.<field>" → nullable (true = Go pointer) for one DescriptorProto and its nested types. */
function readMessage(buf, prefix, out) {
  let name = '';
  const fields = [];
  const nested = [];
  for (const [num, , value] of readFields(buf)) {
    if (num === 1) name = value.toString('utf8');
    else if (num === 2) fields.push(value);
    else if (num === 3) nested.push(value);
  }
  const full = `${prefix}.${name}`;
  for (const field of fields) {
    let fieldName = '';
    let nullable = true; // gogo's default for proto2 optional fields
    for (const [num, , value] of readFields(field)) {
      if (num === 1) fieldName = value.toString('utf8');
      if (num === 8) {
        for (const [opt, , optValue] of readFields(value)) if (opt === GOGO_NULLABLE) nullable = optValue !== 0;
      }
    }
    out.set(`${full}.${fieldName}`, nullable);
  }
  for (const n of nested) readMessage(n, full, out);
}

function readFileDescriptor(buf, out) {
  let pkg = '';
  const messages = [];
  for (const [num, , value] of readFields(buf)) {
    if (num === 2) pkg = value.toString('utf8');
    else if (num === 4) messages.push(value);
  }
  for (const m of messages) readMessage(m, pkg, out);
}

/** Scans a Go binary for gzipped `k8s.io/.../generated.proto` descriptors. */
function scanBinary(path, out) {
  const data = readFileSync(path);
  const magic = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);
  let files = 0;
  for (let i = data.indexOf(magic); i >= 0; i = data.indexOf(magic, i + 1)) {
    let descriptor;
    try {
      // The gzip header Go writes has no optional parts: raw deflate data starts at byte 10.
      descriptor = inflateRawSync(data.subarray(i + 10, i + 10 + (1 << 20)));
    } catch {
      continue;
    }
    const head = descriptor.subarray(0, 200).toString('latin1');
    if (!head.includes('generated.proto') || !head.includes('k8s.io/')) continue;
    const before = out.size;
    try {
      readFileDescriptor(descriptor, out);
      files++;
    } catch {
      // not a descriptor after all; drop what was added
      if (out.size !== before) throw new Error(`partial descriptor at ${i} in ${path}`);
    }
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// 3. OpenAPI: JSON names and group/version/kinds.

const swagger = JSON.parse(readFileSync(join(openapiDir, 'swagger-v1.28.json'), 'utf8')).definitions;
const oldDefs = JSON.parse(readFileSync(join(openapiDir, 'definitions-v1.21.2.json'), 'utf8')).definitions;
const openapiDef = (protoName) => {
  const name = protoName.replace(/^k8s\.io\./, 'io.k8s.');
  return swagger[name] ?? oldDefs[name];
};

/** proto package (k8s.io.api.<pkg>.<version>) → API group, for packages OpenAPI v1.28 lacks. */
const PACKAGE_GROUP = {
  core: '',
  apps: 'apps',
  batch: 'batch',
  autoscaling: 'autoscaling',
  policy: 'policy',
  extensions: 'extensions',
  rbac: 'rbac.authorization.k8s.io',
  flowcontrol: 'flowcontrol.apiserver.k8s.io',
  apiserverinternal: 'internal.apiserver.k8s.io',
};
const groupOfPackage = (pkg) => PACKAGE_GROUP[pkg] ?? `${pkg}.k8s.io`;

/** Kinds of meta.k8s.io that every group/version serves (Status, DeleteOptions, ...). */
const META_PACKAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1';

// ---------------------------------------------------------------------------------------------
// Build.

const roots = [loadVersion('v1.34'), loadVersion('v1.23')];
const types = new Map();
for (const root of roots) {
  for (const [name, type] of collectTypes(root)) {
    const known = types.get(name);
    if (!known) types.set(name, { type, extra: [] });
    else known.extra.push(type); // older declaration: contributes fields the newer one dropped
  }
}
const names = [...types.keys()].filter((n) => n.startsWith('k8s.io.')).sort();
const indexOf = new Map(names.map((n, i) => [n, i]));

const nullable = new Map();
for (const bin of BINARIES) {
  if (!existsSync(bin)) {
    if (bin === BINARIES[0]) throw new Error(`${bin} missing: run node scripts/tools.mjs first`);
    continue;
  }
  const before = nullable.size;
  const files = scanBinary(bin, nullable);
  console.log(`${relative(repoRoot, bin)}: ${files} descriptors, ${nullable.size - before} new fields`);
}

/** Go pointer fields of v1.23 types the v1.34 binaries no longer carry; every other field of those types is a value. */
const LEGACY_POINTERS = new Set([
  'PodSecurityPolicySpec.defaultAllowPrivilegeEscalation',
  'PodSecurityPolicySpec.allowPrivilegeEscalation',
  'PodSecurityPolicySpec.runAsGroup',
  'PodSecurityPolicySpec.runtimeClass',
  'SELinuxStrategyOptions.seLinuxOptions',
  'RuntimeClassStrategyOptions.defaultRuntimeClassName',
  'PersistentVolumeClaimStatus.resizeStatus',
]);

const SCALARS = new Set(['string', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64', 'bool', 'bytes', 'double', 'float', 'fixed32', 'fixed64', 'sfixed32', 'sfixed64']);
const unknownPointer = [];
const renamed = [];

function jsonNameOf(messageName, fieldName) {
  const def = openapiDef(messageName);
  const props = def?.properties;
  if (!props) {
    // Types newer than the OpenAPI data: Go JSON names are lowerCamel (`Expression` → `expression`).
    if (/^[A-Z]/.test(fieldName) && messageName !== 'k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1') {
      const lower = fieldName[0].toLowerCase() + fieldName.slice(1);
      renamed.push(`${messageName}.${fieldName} → ${lower}`);
      return lower;
    }
    return fieldName;
  }
  if (fieldName in props) return fieldName;
  const match = Object.keys(props).find((p) => p.toLowerCase() === fieldName.toLowerCase());
  if (match) {
    renamed.push(`${messageName}.${fieldName} → ${match}`);
    return match;
  }
  return fieldName;
}

function typeRef(field) {
  if (SCALARS.has(field.type)) return field.type;
  const resolved = field.resolvedType;
  if (!resolved || !(resolved instanceof protobuf.Type)) throw new Error(`unresolved type ${field.type} of ${field.fullName}`);
  const idx = indexOf.get(resolved.fullName.slice(1));
  if (idx === undefined) throw new Error(`type outside k8s.io: ${resolved.fullName}`);
  return idx;
}

/** Pointer-ness of a field declared in a version whose binary we lack: same message name, newest wins. */
function pointerOf(messageName, field) {
  const key = `${messageName}.${field.name}`;
  if (nullable.has(key)) return nullable.get(key);
  // The same struct in a sibling version (v1beta1 vs v1) almost always has the same Go shape.
  const simple = messageName.split('.').pop();
  for (const [k, v] of nullable) if (k.endsWith(`.${simple}.${field.name}`)) return v;
  // Types removed before v1.34 (PodSecurityPolicy, ...): from their Go declarations in v1.23.
  if (LEGACY_POINTERS.has(`${simple}.${field.name}`)) return true;
  unknownPointer.push(key);
  return false;
}

/**
 * A Go struct embedded with `json:",inline"` is a nested message in protobuf but flattened in JSON
 * (Volume.volumeSource, Probe.handler, ...): a value message field the parent's OpenAPI
 * properties do not name, whose own fields the parent's properties do name.
 */
function isInline(messageName, field) {
  if (SCALARS.has(field.type) || field.map) return false;
  const props = openapiDef(messageName)?.properties;
  if (!props || field.name in props || jsonNameOf(messageName, field.name) !== field.name) return false;
  const inner = field.resolvedType;
  const innerNames = inner.fieldsArray.map((f) => jsonNameOf(inner.fullName.slice(1), f.name));
  const hits = innerNames.filter((n) => n in props).length;
  if (hits === 0) return false;
  inlined.push(`${messageName}.${field.name}`);
  return true;
}
const inlined = [];

const messages = names.map((name) => {
  const { type, extra } = types.get(name);
  const fields = [...type.fieldsArray];
  const numbers = new Set(fields.map((f) => f.id));
  // Fields v1.23 had and v1.34 dropped (ObjectMeta.clusterName): today's clients never write
  // them, so they are encoded only when the JSON has them, like pointers.
  const dropped = new Set();
  for (const old of extra) for (const f of old.fieldsArray) if (!numbers.has(f.id)) (fields.push(f), numbers.add(f.id), dropped.add(f));
  // Declaration order is the Go struct order, hence the JSON key order; the codec sorts by number itself.
  return fields.map((f) => {
    const jsonName = jsonNameOf(name, f.name);
    if (f.map) {
      const value = SCALARS.has(f.type) ? f.type : typeRef(f);
      return [jsonName, f.id, value, FLAG_MAP, f.keyType];
    }
    let flags = f.repeated ? FLAG_REPEATED : 0;
    if (!f.repeated && (dropped.has(f) || pointerOf(name, f))) flags |= FLAG_POINTER;
    if (flags === 0 && isInline(name, f)) flags |= FLAG_INLINE;
    return [jsonName, f.id, typeRef(f), flags];
  });
});

// Kinds: OpenAPI GVKs first, then any top-level message carrying ObjectMeta/ListMeta metadata.
const kinds = {};
const addKind = (group, version, kind, idx) => {
  const apiVersion = group ? `${group}/${version}` : version;
  (kinds[apiVersion] ??= {})[kind] ??= idx;
};
const packageGroups = new Map();
for (const [idx, name] of names.entries()) {
  for (const gvk of openapiDef(name)?.['x-kubernetes-group-version-kind'] ?? []) {
    addKind(gvk.group, gvk.version, gvk.kind, idx);
    const m = /^k8s\.io\.api\.(\w+)\.(\w+)\./.exec(name);
    if (m && !name.startsWith(META_PACKAGE)) packageGroups.set(m[1], gvk.group);
  }
}
for (const [idx, name] of names.entries()) {
  const m = /^k8s\.io\.api\.(\w+)\.(\w+)\.(\w+)$/.exec(name);
  if (!m) continue;
  const meta = messages[idx].find((f) => f[0] === 'metadata');
  const metaName = typeof meta?.[2] === 'number' ? names[meta[2]] : '';
  if (!metaName.endsWith('meta.v1.ObjectMeta') && !metaName.endsWith('meta.v1.ListMeta')) continue;
  // Parts of objects that carry metadata but are never sent on their own.
  if (/TemplateSpec$|^PersistentVolumeClaimTemplate$/.test(m[3])) continue;
  addKind(packageGroups.get(m[1]) ?? groupOfPackage(m[1]), m[2], m[3], idx);
}

// meta.k8s.io kinds OpenAPI does not list; v1beta1 PartialObjectMetadata is a Go alias of the v1
// type. Table has no protobuf message at all (the real server answers it in JSON only).
const metaIndex = (pkg, kind) => {
  const idx = indexOf.get(`k8s.io.apimachinery.pkg.apis.meta.${pkg}.${kind}`);
  if (idx === undefined) throw new Error(`no meta.${pkg}.${kind} message`);
  return idx;
};
for (const kind of ['PartialObjectMetadata', 'PartialObjectMetadataList', 'Status', 'DeleteOptions', 'WatchEvent', 'ListOptions', 'GetOptions', 'CreateOptions', 'PatchOptions', 'UpdateOptions']) {
  addKind('meta.k8s.io', 'v1', kind, metaIndex('v1', kind));
}
addKind('meta.k8s.io', 'v1beta1', 'PartialObjectMetadata', metaIndex('v1', 'PartialObjectMetadata'));
addKind('meta.k8s.io', 'v1beta1', 'PartialObjectMetadataList', metaIndex('v1beta1', 'PartialObjectMetadataList'));

const out = { names, messages, kinds };
writeFileSync(outFile, JSON.stringify(out));
const kindCount = Object.values(kinds).reduce((n, k) => n + Object.keys(k).length, 0);
console.log(`wrote ${relative(repoRoot, outFile)}: ${names.length} messages, ${Object.keys(kinds).length} apiVersions, ${kindCount} kinds`);
console.log(`inline (embedded) fields: ${inlined.join(', ')}`);
console.log(`JSON names differing from proto names: ${renamed.join(', ') || 'none'}`);
console.log(`fields without pointer facts, taken as Go values (${unknownPointer.length}): ${unknownPointer.join(', ')}`);
