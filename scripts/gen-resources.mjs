// Generates the built-in resource catalog and schema set of kube-apiserver v1.23 from the OpenAPI
// data in ../shared/k8s-openapi (next to the repo). Output is committed; the product never reads
// ../shared at run time.
//
//   node scripts/gen-resources.mjs
//
// Writes src/core/schema/generated/resources.json (ResourceInfo[]) and definitions.json (minified
// OpenAPI v2 definitions reachable from the served kinds, structural keys only).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  SERVED_GVS,
  REMOVED_GVS,
  ALL_VERBS,
  NO_TEMPLATE_RESOURCES,
  NOT_IN_V1_23,
  VERBS_ADDED_LATER,
  KEEP_NEWER,
  VIRTUAL_RESOURCES,
  DISCOVERY_NAMES,
  STORAGE_VERSIONS,
  EXTRA_DEFINITIONS,
  META,
  metaRef,
  metaGvks,
  SYNTHETIC_DEFINITIONS,
  KEYWORD_NAMED_PROPERTIES,
} from './gen-resources-facts.mjs';
import { sharedDir as findSharedDir } from './shared-dir.mjs';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const sharedDir = join(findSharedDir(repoRoot), 'k8s-openapi');
const outDir = join(repoRoot, 'src', 'core', 'schema', 'generated');

const swagger = JSON.parse(readFileSync(join(sharedDir, 'swagger-v1.28.json'), 'utf8'));
const oldDefinitions = JSON.parse(readFileSync(join(sharedDir, 'definitions-v1.21.2.json'), 'utf8')).definitions;
const newDefinitions = swagger.definitions;

// ---------------------------------------------------------------------------------------------
// Reading the v1.28 paths.

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** `connect` operations (exec, proxy, ...) contribute the verb of their HTTP method. */
const CONNECT_METHOD_VERB = { get: 'get', post: 'create', put: 'update', delete: 'delete', patch: 'patch' };
const ACTION_VERB = {
  get: 'get',
  list: 'list',
  post: 'create',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
  deletecollection: 'deletecollection',
  watch: 'watch',
  watchlist: 'watch',
};

const gvKey = (group, version) => (group ? `${group}/${version}` : version);
const gvPrefix = (group, version) => (group ? `/apis/${group}/${version}/` : `/api/${version}/`);

/** Map of gvKey -> resource -> { namespaced, kind, verbs:Set, subresources: name -> {gvk, verbs:Set} }. */
function readPaths() {
  const byGv = new Map();
  for (const [path, item] of Object.entries(swagger.paths)) {
    const m = path.match(/^\/api\/(v1)\/(.*)$/) || path.match(/^\/apis\/([^/]+)\/([^/]+)\/(.*)$/);
    if (!m) continue;
    const [group, version, rest] = m.length === 3 ? ['', m[1], m[2]] : [m[1], m[2], m[3]];
    let segments = rest.split('/');
    if (segments[0] === 'watch') segments = segments.slice(1);
    let namespaced = false;
    if (segments[0] === 'namespaces' && segments[1] === '{namespace}' && segments.length >= 3) {
      namespaced = true;
      segments = segments.slice(2);
    }
    const [resource, name, subresource] = segments;
    if (!resource || (name !== undefined && name !== '{name}')) continue;
    const key = gvKey(group, version);
    if (!byGv.has(key)) byGv.set(key, new Map());
    const resources = byGv.get(key);
    if (!resources.has(resource)) resources.set(resource, { namespaced: false, kind: undefined, verbs: new Set(), subresources: new Map() });
    const entry = resources.get(resource);
    entry.namespaced ||= namespaced;
    let target = entry;
    if (subresource) {
      if (!entry.subresources.has(subresource)) entry.subresources.set(subresource, { gvk: undefined, verbs: new Set() });
      target = entry.subresources.get(subresource);
    }
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const action = op['x-kubernetes-action'];
      const verb = action === 'connect' ? CONNECT_METHOD_VERB[method] : ACTION_VERB[action];
      if (verb) target.verbs.add(verb);
      const gvk = op['x-kubernetes-group-version-kind'];
      if (gvk) {
        if (subresource) target.gvk ??= gvk;
        else entry.kind ??= gvk.kind;
      }
    }
  }
  return byGv;
}

// ---------------------------------------------------------------------------------------------
// Building ResourceInfo entries.

const sortVerbs = (verbs) => [...verbs].sort();

function findKindDefinition(group, version, kind, definitions) {
  for (const [name, def] of Object.entries(definitions)) {
    if (name.startsWith('io.k8s.apimachinery.')) continue;
    const gvks = def['x-kubernetes-group-version-kind'] || [];
    if (gvks.some((g) => g.group === group && g.version === version && g.kind === kind)) return name;
  }
  return undefined;
}

function subresourceInfos(entry, group, version, parentKind) {
  return [...entry.subresources.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, sub]) => {
      const gvk = sub.gvk ?? { group, version, kind: parentKind };
      const info = { name, kind: gvk.kind, verbs: sortVerbs(sub.verbs) };
      if (gvk.group !== group || gvk.version !== version) {
        info.group = gvk.group;
        info.version = gvk.version;
      }
      return info;
    });
}

function makeInfo({ group, version, resource, kind, namespaced, verbs, subresources, definition }) {
  const names = DISCOVERY_NAMES[`${group}/${resource}`] ?? {};
  const info = {
    group,
    version,
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    verbs,
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    subresources,
  };
  if (definition) info.definition = definition;
  const storage = STORAGE_VERSIONS[`${group}/${resource}`];
  if (storage) info.storageVersion = storage;
  if (VIRTUAL_RESOURCES.has(`${group}/${resource}`)) {
    info.virtual = true;
    info.verbs = ['create'];
  }
  return info;
}

function resourcesFromPaths(group, version, pathsByGv) {
  const resources = pathsByGv.get(gvKey(group, version));
  if (!resources) throw new Error(`v1.28 paths lack ${gvKey(group, version)}`);
  const out = [];
  for (const [resource, entry] of resources) {
    const id = `${gvKey(group, version)}/${resource}`;
    if (NOT_IN_V1_23.has(id)) continue;
    if (!entry.kind) throw new Error(`no kind for ${id}`);
    out.push(
      makeInfo({
        group,
        version,
        resource,
        kind: entry.kind,
        namespaced: entry.namespaced,
        verbs: sortVerbs(entry.verbs).filter((v) => !(VERBS_ADDED_LATER[id] ?? []).includes(v)),
        subresources: subresourceInfos(entry, group, version, entry.kind),
        definition: findKindDefinition(group, version, entry.kind, newDefinitions),
      }),
    );
  }
  return out;
}

function resourcesFromOldDefinitions(group, version, pathsByGv) {
  const { kinds, template } = REMOVED_GVS[gvKey(group, version)];
  const templateResources = pathsByGv.get(template);
  const [tGroup, tVersion] = template.includes('/') ? template.split('/') : ['', template];
  return kinds.map((kind) => {
    const definition = findKindDefinition(group, version, kind, oldDefinitions);
    if (!definition) throw new Error(`v1.21.2 definitions lack ${group}/${version} ${kind}`);
    const fixed = NO_TEMPLATE_RESOURCES[`${gvKey(group, version)}/${kind}`];
    if (fixed) return makeInfo({ group, version, kind, definition, ...fixed });
    const match = [...templateResources.entries()].find(([, e]) => e.kind === kind);
    if (!match) throw new Error(`template ${template} has no ${kind}`);
    const [resource, entry] = match;
    // Subresources of these templates are all `status` (same kind), so they map one to one.
    const subresources = subresourceInfos(entry, tGroup, tVersion, kind).map((s) => ({ ...s, kind: s.group ? s.kind : kind }));
    return makeInfo({ group, version, resource, kind, namespaced: entry.namespaced, verbs: sortVerbs(entry.verbs), subresources, definition });
  });
}

// ---------------------------------------------------------------------------------------------
// Definitions: structural keys only, closure over $ref.

const KEPT_KEYS = new Set(['type', 'format', 'properties', 'items', 'additionalProperties', '$ref', 'required', 'enum']);

function strip(node) {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (!KEPT_KEYS.has(key) && !key.startsWith('x-kubernetes-')) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([p, v]) => [p, strip(v)]));
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = strip(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function collectRefs(node, into) {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach((n) => collectRefs(n, into));
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') into.push(value.replace('#/definitions/', ''));
    else collectRefs(value, into);
  }
}

function lookupDefinition(name) {
  return SYNTHETIC_DEFINITIONS[name] ?? newDefinitions[name] ?? oldDefinitions[name];
}

function buildDefinitions(roots) {
  const out = {};
  const queue = [...roots];
  while (queue.length) {
    const name = queue.shift();
    if (out[name]) continue;
    const def = lookupDefinition(name);
    if (!def) throw new Error(`definition ${name} not found`);
    out[name] = strip(def);
    const refs = [];
    collectRefs(out[name], refs);
    queue.push(...refs);
  }
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
}

/** Refuses data that lost a property named like a schema keyword (see KEYWORD_NAMED_PROPERTIES). */
function checkKeywordNamedProperties(definitions) {
  for (const [name, props] of Object.entries(KEYWORD_NAMED_PROPERTIES)) {
    const def = definitions[name];
    if (!def) throw new Error(`definition ${name} is not in the schema set`);
    const missing = props.filter((p) => !Object.hasOwn(def.properties ?? {}, p));
    if (missing.length) throw new Error(`${name} lacks the properties ${missing.join(', ')}: the OpenAPI data lost them`);
  }
}

/** The definition name of a subresource kind, when the schema set has one (Scale, Eviction, ...). */
function subresourceDefinitionRoots(resources) {
  const roots = [];
  for (const r of resources) {
    for (const s of r.subresources) {
      const name = findKindDefinition(s.group ?? r.group, s.version ?? r.version, s.kind, newDefinitions);
      if (name) roots.push(name);
    }
  }
  return roots;
}

// ---------------------------------------------------------------------------------------------

function main() {
  const pathsByGv = readPaths();
  const resources = [];
  for (const [group, version] of SERVED_GVS) {
    const key = gvKey(group, version);
    const list = REMOVED_GVS[key] ? resourcesFromOldDefinitions(group, version, pathsByGv) : resourcesFromPaths(group, version, pathsByGv);
    list.sort((a, b) => (a.resource < b.resource ? -1 : 1));
    resources.push(...list);
  }

  for (const id of KEEP_NEWER) {
    if (!resources.some((r) => `${gvKey(r.group, r.version)}/${r.resource}` === id)) throw new Error(`${id} missing from the v1.28 paths`);
  }

  const roots = new Set(EXTRA_DEFINITIONS);
  for (const r of resources) {
    if (!r.definition) continue;
    roots.add(r.definition);
    const listName = r.definition.replace(/[^.]+$/, r.listKind);
    if (lookupDefinition(listName)) roots.add(listName);
  }
  for (const name of subresourceDefinitionRoots(resources)) roots.add(name);
  const definitions = buildDefinitions([...roots].sort());
  checkKeywordNamedProperties(definitions);

  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'resources.json'), JSON.stringify(resources, null, 1) + '\n');
  writeFileSync(join(outDir, 'definitions.json'), JSON.stringify(definitions));
  const perGv = {};
  for (const r of resources) perGv[gvKey(r.group, r.version)] = (perGv[gvKey(r.group, r.version)] ?? 0) + 1;
  console.log(`${resources.length} resources, ${Object.keys(definitions).length} definitions`);
  console.log(Object.entries(perGv).map(([k, n]) => `${k}:${n}`).join(' '));
}

main();
