// Admission webhook configurations (admissionregistration.k8s.io/v1) as the dispatcher reads
// them: one entry per webhook with the v1 defaults applied (failurePolicy Fail, matchPolicy
// Equivalent, empty selectors match everything, timeoutSeconds 10, reinvocationPolicy Never).
import type { Obj } from '../../registry/objects';
import { labelSelectorFromObject, type LabelSelector } from '../../selectors/labels';

export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  /** 'Cluster' | 'Namespaced' | '*'. */
  scope: string;
}

export interface ClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port?: number };
  /** Base64 of a PEM bundle, as stored. */
  caBundle?: string;
}

export interface Webhook {
  /** The configuration object's name (audit annotations of mutations name it). */
  configuration: string;
  name: string;
  mutating: boolean;
  clientConfig: ClientConfig;
  rules: WebhookRule[];
  failurePolicy: 'Fail' | 'Ignore';
  matchPolicy: 'Exact' | 'Equivalent';
  namespaceSelector: LabelSelector;
  objectSelector: LabelSelector;
  /** Absent only in objects stored without it (v1 validation requires it). */
  sideEffects?: string;
  timeoutSeconds: number;
  reinvocationPolicy: 'Never' | 'IfNeeded';
}

function selector(sel: unknown): LabelSelector {
  // The v1 default is the empty selector (everything); an unparsable one matches nothing.
  try {
    return labelSelectorFromObject(sel ?? {});
  } catch {
    return { requirements: [], nothing: true };
  }
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** The webhooks of one stored configuration, in their order. */
export function webhooksOf(config: Obj, mutating: boolean): Webhook[] {
  const out: Webhook[] = [];
  for (const w of (Array.isArray(config.webhooks) ? config.webhooks : []) as Obj[]) {
    if (!w || typeof w !== 'object') continue;
    out.push({
      configuration: String(config.metadata?.name ?? ''),
      name: String(w.name ?? ''),
      mutating,
      clientConfig: (w.clientConfig && typeof w.clientConfig === 'object' ? w.clientConfig : {}) as ClientConfig,
      // A null rule decodes in Go as the zero value (which matches nothing); an object stored
      // before validation refused such rules must not break every request.
      rules: ((Array.isArray(w.rules) ? w.rules : []) as unknown[]).map((v) => (v && typeof v === 'object' ? (v as Obj) : {})).map((r) => ({
        operations: strings(r.operations),
        apiGroups: strings(r.apiGroups),
        apiVersions: strings(r.apiVersions),
        resources: strings(r.resources),
        scope: typeof r.scope === 'string' ? r.scope : '*',
      })),
      failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      matchPolicy: w.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
      namespaceSelector: selector(w.namespaceSelector),
      objectSelector: selector(w.objectSelector),
      sideEffects: typeof w.sideEffects === 'string' ? w.sideEffects : undefined,
      timeoutSeconds: typeof w.timeoutSeconds === 'number' && w.timeoutSeconds > 0 ? w.timeoutSeconds : 10,
      reinvocationPolicy: mutating && w.reinvocationPolicy === 'IfNeeded' ? 'IfNeeded' : 'Never',
    });
  }
  return out;
}
