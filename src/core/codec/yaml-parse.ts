// YAML request bodies read like sigs.k8s.io/yaml.YAMLToJSON over go-yaml v2: YAML 1.1 scalars
// (`yes`/`on`/`y` are booleans, `0777` is octal) but timestamps and `1:20` stay strings, only the
// first document counts, and errors read `error converting YAML to JSON: yaml: line N: ...`.
import { isScalar, LineCounter, parseAllDocuments, visit, type Document, type Node, type Tags } from 'yaml';
import { MAX_NESTING, tooDeepAt } from './json-scan';
import { setOwnKey } from './own-keys';

export type YamlParseResult = { ok: true; value: unknown } | { ok: false; message: string };

/** go-yaml v2 keeps timestamps and sexagesimal numbers as strings when decoding into interface{}. */
function goYamlTags(tags: Tags): Tags {
  return tags.filter((t) => {
    const tag = (t as { tag?: string }).tag;
    const format = (t as { format?: string }).format;
    return tag !== 'tag:yaml.org,2002:timestamp' && format !== 'TIME';
  });
}

/** Best-effort translation of the yaml package's messages to go-yaml's wording. */
function goYamlMessage(code: string, message: string): string {
  switch (code) {
    case 'BAD_INDENT':
    case 'MISSING_CHAR':
      return /:/.test(message) ? "could not find expected ':'" : 'did not find expected key';
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
    case 'UNEXPECTED_TOKEN':
      return /map|:/.test(message) ? 'mapping values are not allowed in this context' : 'did not find expected key';
    case 'TAB_AS_INDENT':
      return 'found character that cannot start any token';
    case 'MISSING_CHAR_QUOTE':
    case 'BAD_DQ_ESCAPE':
      return 'found unexpected end of stream';
    default:
      // Block nesting deep enough to exhaust the reader's stack: refused like flow nesting.
      if (/Maximum call stack/.test(message)) return `exceeded max depth of ${MAX_NESTING}`;
      return message.split('\n')[0].replace(/ at line \d+, column \d+.*$/, '');
  }
}

function stringifyKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stringifyKeys);
  if (v instanceof Map) {
    const o: Record<string, unknown> = {};
    for (const [k, val] of v) setOwnKey(o, k === null ? 'null' : String(k), stringifyKeys(val));
    return o;
  }
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) setOwnKey(o, k, stringifyKeys(val));
    return o;
  }
  if (typeof v === 'bigint') return Number(v);
  return v;
}

function parseDocs(text: string, lineCounter?: LineCounter) {
  return parseAllDocuments(text, { version: '1.1', schema: 'yaml-1.1', customTags: goYamlTags, uniqueKeys: false, merge: true, lineCounter, intAsBigInt: false });
}

/** Parse the first YAML document into a JSON-compatible value. */
export function parseYaml(text: string): YamlParseResult {
  // Flow collections nested past what our walkers take (go-yaml stops at 10000 levels).
  const deep = tooDeepAt(text);
  if (deep >= 0) return { ok: false, message: `error converting YAML to JSON: yaml: line ${lineAt(text, deep)}: exceeded max depth of ${MAX_NESTING}` };
  const lc = new LineCounter();
  const docs = parseDocs(text, lc);
  const list = Array.isArray(docs) ? docs : [docs];
  const doc = list[0];
  if (!doc) return { ok: true, value: null };
  const err = doc.errors[0];
  if (err) {
    const line = err.linePos?.[0]?.line ?? lc.linePos(err.pos[0]).line;
    return { ok: false, message: `error converting YAML to JSON: yaml: line ${line}: ${goYamlMessage(err.code, err.message)}` };
  }
  // An alias of no anchor, or inside the node it names (which would expand forever): go-yaml
  // refuses both by name.
  const aliasError = badAlias(doc);
  if (aliasError !== undefined) return { ok: false, message: `error converting YAML to JSON: yaml: ${aliasError}` };
  let value: unknown;
  try {
    value = doc.toJS({ mapAsMap: true, maxAliasCount: 100 });
  } catch (e) {
    // An alias bomb (each level doubling the last): go-yaml's words for its own limit.
    if (e instanceof ReferenceError && /alias/i.test(e.message)) return { ok: false, message: 'error converting YAML to JSON: yaml: document contains excessive aliasing' };
    throw e;
  }
  return { ok: true, value: stringifyKeys(value) };
}

/**
 * go-yaml's error for the document's aliases, or undefined. Composing the document fails first,
 * on the first alias of an anchor not defined before it (`unknown anchor 'b' referenced`);
 * decoding then fails on the first alias, in document order, that sits inside the very node it
 * refers to (`a: &a [*a]`: `anchor 'a' value contains itself`). Since an alias can only name an
 * earlier anchor, that is the only way a document can hold a cycle.
 */
function badAlias(doc: Document.Parsed): string | undefined {
  let unknown: string | undefined;
  let selfContained: string | undefined;
  visit(doc, {
    Alias(_, alias, path) {
      const target = alias.resolve(doc);
      if (!target) {
        unknown = alias.source;
        return visit.BREAK;
      }
      if (selfContained === undefined && path.includes(target as never)) selfContained = alias.source;
      return undefined;
    },
  });
  if (unknown !== undefined) return `unknown anchor '${unknown}' referenced`;
  if (selfContained !== undefined) return `anchor '${selfContained}' value contains itself`;
  return undefined;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * go-yaml v2 strict mode's duplicate-key errors (`line 5: key "name" already set in map`), in
 * document order; kube puts these before unknown-field errors for YAML bodies.
 */
export function yamlDuplicateKeyErrors(text: string): string[] {
  const lc = new LineCounter();
  const docs = parseDocs(text, lc);
  const doc = (Array.isArray(docs) ? docs : [docs])[0];
  if (!doc || doc.errors.length) return [];
  const out: { at: number; msg: string }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const keyNode = pair.key as Node | null;
        const key = isScalar(keyNode) ? keyNode.value : keyNode;
        const id = typeof key === 'string' ? `s:${key}` : `v:${String(key)}`;
        if (seen.has(id)) {
          const at = keyNode && keyNode.range ? keyNode.range[0] : 0;
          out.push({ at, msg: `line ${lc.linePos(at).line}: key ${typeof key === 'string' ? JSON.stringify(key) : String(key)} already set in map` });
        }
        seen.add(id);
      }
    },
  });
  // go-yaml decodes depth-first, so errors come in source order.
  return out.sort((a, b) => a.at - b.at).map((e) => e.msg);
}

