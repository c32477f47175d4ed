// Shareable scenarios: a set of objects (with their managedFields) and an optional lesson, carried
// in the URL fragment as `#/scenario/<data>` so a link opens them with no server involved. The
// data is the scenario's JSON, compressed with the browser's own CompressionStream('deflate-raw')
// and written in base64url (the fragment then needs no percent-encoding).

import { formatHash, parseHash } from './routes';

/** Bumped when the format changes; an unknown version is refused with a clear message. */
const SCENARIO_VERSION = 1;
/** A link longer than this is refused when opened: no browser keeps URLs this long anyway. */
const MAX_ENCODED_CHARS = 8 * 1024 * 1024;
/** Decompressed size bound, so a tiny link cannot expand into gigabytes (a deflate bomb). */
const MAX_DECODED_BYTES = 32 * 1024 * 1024;

export interface ScenarioObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

export interface Scenario {
  objects: ScenarioObject[];
  /** A lesson to open once the objects are in (a lesson id from the catalog). */
  lesson?: string;
}

export class ScenarioError extends Error {}

/** Namespaces every cluster starts with. */
const INITIAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

/**
 * Objects every fresh cluster already has, or that its controllers make on their own: a shared
 * link leaves them out (an import onto a fresh cluster would only collide with them, and the
 * browser host's signing key must never leave the tab).
 */
export function isSystemObject(o: ScenarioObject): boolean {
  const group = (o.apiVersion ?? '').includes('/') ? o.apiVersion!.split('/')[0]! : '';
  const name = o.metadata?.name ?? '';
  const namespace = o.metadata?.namespace;
  const labels = o.metadata?.labels ?? {};
  const annotations = o.metadata?.annotations ?? {};
  // What the cluster's controllers keep up by themselves: they make it again after an import.
  const owners = (o.metadata as { ownerReferences?: Array<{ controller?: boolean }> } | undefined)?.ownerReferences ?? [];
  if (owners.some((r) => r?.controller === true)) return true;
  // Add-ons the cluster installs at start (the default StorageClass), labelled as kube's add-on manager labels them.
  if (Object.hasOwn(labels, 'addonmanager.kubernetes.io/mode')) return true;
  switch (`${group}/${o.kind ?? ''}`) {
    case '/Node':
    case '/Event':
    case 'events.k8s.io/Event':
      // The simulated nodes register themselves; events are a record of what happened, not intent.
      return true;
    case 'coordination.k8s.io/Lease':
      // Node heartbeats and the controller manager's leader lease.
      return namespace === 'kube-node-lease' || namespace === 'kube-system';
    case '/Namespace':
      return INITIAL_NAMESPACES.has(name);
    case '/ConfigMap':
      return name === 'kube-root-ca.crt' || (namespace === 'kube-system' && name.startsWith('kube-playground-'));
    case '/ServiceAccount':
      return name === 'default';
    case '/Secret':
      return o.type === 'kubernetes.io/service-account-token' || (namespace === 'kube-system' && name.startsWith('kube-playground-'));
    case '/Service':
    case '/Endpoints':
    case 'discovery.k8s.io/EndpointSlice':
      return namespace === 'default' && name === 'kubernetes';
    case 'apiregistration.k8s.io/APIService':
      return Object.hasOwn(labels, 'kube-aggregator.kubernetes.io/automanaged');
    case 'scheduling.k8s.io/PriorityClass':
      // Only the system ones may carry this prefix: the API refuses it for anyone else.
      return name.startsWith('system-');
    case 'flowcontrol.apiserver.k8s.io/FlowSchema':
    case 'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration':
      return Object.hasOwn(annotations, 'apf.kubernetes.io/autoupdate-spec');
    case 'rbac.authorization.k8s.io/ClusterRole':
    case 'rbac.authorization.k8s.io/ClusterRoleBinding':
    case 'rbac.authorization.k8s.io/Role':
    case 'rbac.authorization.k8s.io/RoleBinding':
      return labels['kubernetes.io/bootstrapping'] === 'rbac-defaults';
  }
  return false;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode with a huge spread overflows the call stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new ScenarioError('the link is damaged: its data has characters base64url does not use');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    throw new ScenarioError('the link is damaged: its data is not base64url');
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, transform: CompressionStream | DecompressionStream, limit = Infinity): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(transform).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw new ScenarioError(`the scenario is larger than ${limit / 1024 / 1024} MB once unpacked`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The fragment's data part for a scenario. */
export async function encodeScenario(scenario: Scenario): Promise<string> {
  const body: { v: number; lesson?: string; objects: ScenarioObject[] } = { v: SCENARIO_VERSION, objects: scenario.objects };
  if (scenario.lesson) body.lesson = scenario.lesson;
  return toBase64Url(await pipe(new TextEncoder().encode(JSON.stringify(body)), new CompressionStream('deflate-raw')));
}

/** The scenario in a fragment's data part; a ScenarioError says what is wrong with a bad one. */
export async function decodeScenario(data: string): Promise<Scenario> {
  if (!data) throw new ScenarioError('the link has no scenario data after #/scenario/');
  if (data.length > MAX_ENCODED_CHARS) throw new ScenarioError('the link is too long to be a scenario');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await pipe(fromBase64Url(data), new DecompressionStream('deflate-raw'), MAX_DECODED_BYTES));
  } catch (e) {
    if (e instanceof ScenarioError) throw e;
    throw new ScenarioError('the link is damaged: its data does not unpack (was it cut short?)');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ScenarioError('the link is damaged: its data is not JSON');
  }
  const body = parsed as { v?: unknown; lesson?: unknown; objects?: unknown };
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ScenarioError('the scenario is not a JSON object');
  if (body.v !== SCENARIO_VERSION) throw new ScenarioError(`the scenario has format version ${JSON.stringify(body.v)}; this page reads version ${SCENARIO_VERSION}`);
  if (!Array.isArray(body.objects)) throw new ScenarioError('the scenario has no list of objects');
  const objects = body.objects as unknown[];
  objects.forEach((o, i) => {
    const obj = o as ScenarioObject | null;
    if (!obj || typeof obj !== 'object' || Array.isArray(obj) || typeof obj.kind !== 'string' || typeof obj.apiVersion !== 'string' || typeof obj.metadata?.name !== 'string') {
      throw new ScenarioError(`object ${i + 1} of the scenario has no apiVersion, kind and metadata.name`);
    }
  });
  const scenario: Scenario = { objects: objects as ScenarioObject[] };
  if (body.lesson !== undefined) {
    if (typeof body.lesson !== 'string' || !/^[a-z0-9-]{1,100}$/.test(body.lesson)) throw new ScenarioError('the scenario names a lesson id that is not one');
    scenario.lesson = body.lesson;
  }
  return scenario;
}

/** The scenario data in a location hash, or undefined when the hash is not a scenario link. */
export function scenarioData(hash: string): string | undefined {
  const route = parseHash(hash);
  return route.view === 'scenario' ? route.data : undefined;
}

/** A link to this page (its address without the fragment) that opens the scenario. */
export async function scenarioLink(pageUrl: string, scenario: Scenario): Promise<string> {
  return `${pageUrl.replace(/#.*$/s, '')}${formatHash({ view: 'scenario', data: await encodeScenario(scenario) })}`;
}

/** One line naming the objects, for the confirmation (e.g. "Namespace × 1, ConfigMap × 2"). */
export function describeObjects(objects: ScenarioObject[]): string {
  const counts = new Map<string, number>();
  for (const o of objects) counts.set(o.kind ?? '?', (counts.get(o.kind ?? '?') ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${kind} × ${n}`).join(', ') || 'no objects';
}

/**
 * The objects as the host's import endpoint reads them: multi-document YAML, each document the
 * object's JSON (JSON is YAML), so opening a link needs no YAML writer in the page.
 */
export function importText(objects: ScenarioObject[]): string {
  return objects.map((o) => `---\n${JSON.stringify(o)}\n`).join('');
}
