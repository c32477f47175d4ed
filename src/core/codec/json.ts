// JSON in and out the way kube-apiserver does it: bodies are read with Go's error wording, and
// responses are written as Go's encoding/json writes them (HTML-safe escapes, trailing newline,
// two-space indent for ?pretty=true).
import { JsonSyntaxError, nodeToValue, scanJson, type JsonNode } from './json-scan';
import { bodyBytes } from '../meta/types';

export type { JsonNode } from './json-scan';

export type JsonBodyResult =
  | {
      ok: true;
      value: unknown;
      /** Ordered tree with repeated keys marked, for strict field validation. */
      node: JsonNode;
      /** From the body; empty strings when absent. */
      apiVersion: string;
      kind: string;
      group: string;
      version: string;
    }
  | { ok: false; message: string };

const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function goTypeName(node: JsonNode): string {
  if (node.kind === 'object') return 'object';
  if (node.kind === 'array') return 'array';
  const v = node.value;
  return typeof v === 'string' ? 'string' : typeof v === 'number' ? 'number' : 'bool';
}

/** One decoder for every body (decode() without `stream` keeps no state between calls). */
const UTF8 = new TextDecoder();

/** Decode UTF-8 bytes the way Go sees them (invalid sequences become U+FFFD). */
export function bodyText(body: Uint8Array | readonly Uint8Array[] | string | undefined): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : UTF8.decode(bodyBytes(body));
}

/**
 * Read a JSON request body and its apiVersion/kind like the apimachinery JSON serializer's first
 * step (SimpleMetaFactory.Interpret). Errors carry kube's text; the caller wraps them into 400s.
 */
export function parseJsonBody(body: Uint8Array | string | undefined): JsonBodyResult {
  const text = bodyText(body);
  let node: JsonNode;
  try {
    node = scanJson(text);
  } catch (e) {
    if (e instanceof JsonSyntaxError) return { ok: false, message: `couldn't get version/kind; json parse error: ${e.message}` };
    throw e;
  }
  let apiVersion = '';
  let kind = '';
  if (node.kind === 'object') {
    for (const entry of node.entries) {
      // encoding/json matches struct fields case-insensitively; the last occurrence wins.
      const k = entry.key.toLowerCase();
      if (k !== 'apiversion' && k !== 'kind') continue;
      const field = k === 'kind' ? 'kind' : 'apiVersion';
      const v = entry.value;
      if (v.kind === 'scalar' && v.value === null) continue;
      if (v.kind !== 'scalar' || typeof v.value !== 'string') {
        return { ok: false, message: `couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(v)} into Go struct field .${field} of type string` };
      }
      if (field === 'kind') kind = v.value;
      else apiVersion = v.value;
    }
  } else if (!(node.kind === 'scalar' && node.value === null)) {
    return { ok: false, message: `couldn't get version/kind; json parse error: json: cannot unmarshal ${goTypeName(node)} into Go value of type ${FIND_KIND_TYPE}` };
  }
  const gv = parseGroupVersion(apiVersion);
  if (!gv) return { ok: false, message: `unexpected GroupVersion string: ${apiVersion}` };
  return { ok: true, value: nodeToValue(node), node, apiVersion, kind, group: gv.group, version: gv.version };
}

/** schema.ParseGroupVersion; null for more than one slash. */
export function parseGroupVersion(gv: string): { group: string; version: string } | null {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const parts = gv.split('/');
  if (parts.length === 1) return { group: '', version: gv };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return null;
}

/** runtime.NewMissingKindErr text. */
export function missingKindMessage(body: string): string {
  return `Object 'Kind' is missing in '${body}'`;
}

/** runtime.NewMissingVersionErr text. */
export function missingVersionMessage(body: string): string {
  return `Object 'apiVersion' is missing in '${body}'`;
}

/** The handlers' summarizeData: the first 30 bytes of a body for error messages. */
export function summarizeBody(body: Uint8Array | string, maxLength = 30): string {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  if (bytes.length === 0) return '<empty>';
  const cut = bytes.length > maxLength ? bytes.subarray(0, maxLength) : bytes;
  const suffix = bytes.length > maxLength ? ' ...' : '';
  if (bytes[0] === 0x7b) return new TextDecoder().decode(cut) + suffix;
  return [...cut].map((b) => b.toString(16).padStart(2, '0')).join('') + suffix;
}

/**
 * The handlers' transformDecodeError: with a kind in the body
 * `<Kind> in version "<v>" cannot be handled as a <Target>: <err>`, otherwise
 * `the object provided is unrecognized (must be of type <Target>): <err> (<summary>)`.
 */
export function decodeErrorMessage(targetKind: string, err: string, body: Uint8Array | string, bodyKind?: string, bodyVersion?: string): string {
  // kube names the version alone (`Deployment in version "v1"`), without the group.
  if (bodyKind) return `${bodyKind} in version ${JSON.stringify((bodyVersion ?? '').slice((bodyVersion ?? '').lastIndexOf('/') + 1))} cannot be handled as a ${targetKind}: ${err}`;
  return `the object provided is unrecognized (must be of type ${targetKind}): ${err} (${summarizeBody(body)})`;
}

/**
 * Serialise like Go's encoding/json: `<`, `>`, `&`, U+2028/U+2029 escaped, `\b`/`\f` as
 * \u escapes, lone surrogates as U+FFFD. Compact output ends with "\n" (json.Encoder);
 * pretty output (json.MarshalIndent, two spaces) does not.
 */
export function encodeJson(value: unknown, pretty = false): string {
  const raw = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
  const out = goEscapes(raw ?? 'null');
  return pretty ? out : `${out}\n`;
}

function goEscapes(json: string): string {
  return json
    .replace(/\\(u[dD][89abAB][0-9a-fA-F]{2}|u[dD][c-fC-F][0-9a-fA-F]{2}|.)/g, (m, esc: string) => {
      if (esc === 'b') return '\\u0008';
      if (esc === 'f') return '\\u000c';
      // JSON.stringify only escapes surrogates that are unpaired; Go writes U+FFFD for them.
      if (esc.length === 5) return '\\ufffd';
      return m;
    })
    .replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
