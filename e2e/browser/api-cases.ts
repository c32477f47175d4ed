// API cases shared by the browser host and the Node host: one sequence of plain requests (paths
// relative to the site root), run with fetch against each host, whose normalised results must be
// identical. `{{continue}}` in a path is replaced by the previous response's metadata.continue.

export interface Step {
  name: string;
  method: string;
  path: string;
  contentType?: string;
  body?: unknown;
  /** Expected status (checked on both hosts besides their equality). */
  status: number;
  /** Asked again (for up to 3 s) until it answers `status`: state a controller settles. */
  settles?: boolean;
}

export interface StepResult {
  name: string;
  status: number;
  contentType: string;
  body: unknown;
}

const CM = 'api/v1/namespaces/default/configmaps';
const cm = (name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data });

export const STEPS: Step[] = [
  { name: 'create a', method: 'POST', path: CM, contentType: 'application/json', body: cm('a', { k: 'v' }, { labels: { app: 'x' } }), status: 201 },
  { name: 'create a again', method: 'POST', path: CM, contentType: 'application/json', body: cm('a', { k: 'v' }), status: 409 },
  { name: 'create b', method: 'POST', path: CM, contentType: 'application/json', body: cm('b', { k: 'v' }), status: 201 },
  { name: 'create c', method: 'POST', path: CM, contentType: 'application/json', body: cm('c', { k: 'v' }), status: 201 },
  { name: 'get a', method: 'GET', path: `${CM}/a`, status: 200 },
  { name: 'get missing', method: 'GET', path: `${CM}/nope`, status: 404 },
  { name: 'list page 1', method: 'GET', path: `${CM}?limit=2`, status: 200 },
  { name: 'list page 2', method: 'GET', path: `${CM}?limit=2&continue={{continue}}`, status: 200 },
  { name: 'merge patch', method: 'PATCH', path: `${CM}/a`, contentType: 'application/merge-patch+json', body: { data: { merged: 'yes' } }, status: 200 },
  { name: 'json patch', method: 'PATCH', path: `${CM}/a`, contentType: 'application/json-patch+json', body: [{ op: 'add', path: '/data/json', value: 'yes' }], status: 200 },
  { name: 'strategic patch', method: 'PATCH', path: `${CM}/a`, contentType: 'application/strategic-merge-patch+json', body: { metadata: { labels: { tier: 'web' } } }, status: 200 },
  { name: 'apply as alice', method: 'PATCH', path: `${CM}/applied?fieldManager=alice`, contentType: 'application/apply-patch+yaml', body: cm('applied', { owner: 'alice' }), status: 201 },
  { name: 'apply conflict as bob', method: 'PATCH', path: `${CM}/applied?fieldManager=bob`, contentType: 'application/apply-patch+yaml', body: cm('applied', { owner: 'bob' }), status: 409 },
  { name: 'apply force as bob', method: 'PATCH', path: `${CM}/applied?fieldManager=bob&force=true`, contentType: 'application/apply-patch+yaml', body: cm('applied', { owner: 'bob' }), status: 200 },
  { name: 'create with finalizer', method: 'POST', path: CM, contentType: 'application/json', body: cm('fin', {}, { finalizers: ['example.com/hold'] }), status: 201 },
  { name: 'delete with finalizer', method: 'DELETE', path: `${CM}/fin`, status: 200 },
  { name: 'get while finalizing', method: 'GET', path: `${CM}/fin`, status: 200 },
  { name: 'drop finalizer', method: 'PATCH', path: `${CM}/fin`, contentType: 'application/merge-patch+json', body: { metadata: { finalizers: null } }, status: 200 },
  { name: 'gone after finalizer', method: 'GET', path: `${CM}/fin`, status: 404 },
  { name: 'delete b', method: 'DELETE', path: `${CM}/b`, status: 200 },
  { name: 'list after', method: 'GET', path: CM, status: 200 },
  // Garbage collection: `{{uid}}` is the uid of the object the previous step answered.
  { name: 'create gc owner', method: 'POST', path: CM, contentType: 'application/json', body: cm('gc-owner', {}), status: 201 },
  { name: 'create gc dependent', method: 'POST', path: CM, contentType: 'application/json', body: cm('gc-dep', {}, { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'gc-owner', uid: '{{uid}}', blockOwnerDeletion: true }] }), status: 201 },
  { name: 'delete gc owner in the foreground', method: 'DELETE', path: `${CM}/gc-owner?propagationPolicy=Foreground`, status: 200 },
  { name: 'gc dependent collected', method: 'GET', path: `${CM}/gc-dep`, status: 404, settles: true },
  { name: 'gc owner gone after it', method: 'GET', path: `${CM}/gc-owner`, status: 404, settles: true },
];

/**
 * Runs the steps with fetch against `root` (URL of the site root, ending in `/`). Self-contained
 * (no closures over module scope) so it can be passed to page.evaluate as well.
 */
export async function runSteps(args: { root: string; steps: Step[] }): Promise<StepResult[]> {
  const out: StepResult[] = [];
  let lastContinue = '';
  let lastUid = '';
  for (const step of args.steps) {
    let path = step.path.replace('{{continue}}', encodeURIComponent(lastContinue));
    // The default field manager comes from the User-Agent, which differs between the hosts' clients.
    if ((step.method === 'POST' || step.method === 'PATCH' || step.method === 'PUT') && !path.includes('fieldManager=')) path += `${path.includes('?') ? '&' : '?'}fieldManager=shared-cases`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (step.body !== undefined) {
      headers['Content-Type'] = step.contentType ?? 'application/json';
      body = JSON.stringify(step.body).replace('{{uid}}', lastUid);
    }
    let res = await fetch(new URL(path, args.root), { method: step.method, headers, body });
    for (let i = 0; step.settles && res.status !== step.status && i < 150; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      res = await fetch(new URL(path, args.root), { method: step.method, headers, body });
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // keep the text
    }
    const meta = (parsed as { metadata?: { continue?: string; uid?: string } } | null)?.metadata;
    if (meta?.continue) lastContinue = meta.continue;
    if (meta?.uid) lastUid = meta.uid;
    out.push({ name: step.name, status: res.status, contentType: res.headers.get('content-type') ?? '', body: parsed });
  }
  return out;
}

/** Replaces values that legitimately differ between two runs (uids, times, continue tokens). */
export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // A managedFields key can name a uid too (`k:{"uid":"..."}` of an ownerReference).
      const k = key.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>');
      if (['uid', 'creationTimestamp', 'deletionTimestamp', 'time', 'continue'].includes(k) && typeof v === 'string') out[k] = `<${k}>`;
      // Each cluster has a CA of its own (kube-root-ca.crt's ca.crt).
      else if (typeof v === 'string' && v.startsWith('-----BEGIN CERTIFICATE-----')) out[k] = '<certificate>';
      else out[k] = normalize(v);
    }
    return out;
  }
  return value;
}
