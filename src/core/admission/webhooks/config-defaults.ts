// admissionregistration.k8s.io/v1 defaulting of webhook configurations (SetDefaults_*Webhook),
// so stored objects read back as kube's do: failurePolicy Fail, matchPolicy Equivalent, empty
// selectors, timeoutSeconds 10, reinvocationPolicy Never (mutating), rule scope "*", service
// port 443. Keys are rebuilt in the Go struct's field order.
import type { AdmissionPlugin } from '../../registry/admission-plugin';
import type { Obj } from '../../registry/objects';

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

function defaultRule(rule: unknown): unknown {
  if (!isObj(rule)) return rule;
  const { operations, apiGroups, apiVersions, resources, scope, ...rest } = rule;
  return { operations, apiGroups, apiVersions, resources, scope: scope ?? '*', ...rest };
}

function defaultWebhook(hook: unknown, mutating: boolean): unknown {
  if (!isObj(hook)) return hook;
  const { name, clientConfig, rules, failurePolicy, matchPolicy, namespaceSelector, objectSelector, sideEffects, timeoutSeconds, admissionReviewVersions, reinvocationPolicy, ...rest } = hook;
  let cc = clientConfig;
  if (isObj(cc) && isObj(cc.service) && cc.service.port === undefined) cc = { ...cc, service: { ...cc.service, port: 443 } };
  const out: Obj = {
    name,
    clientConfig: cc,
    rules: Array.isArray(rules) ? rules.map(defaultRule) : rules,
    failurePolicy: failurePolicy ?? 'Fail',
    matchPolicy: matchPolicy ?? 'Equivalent',
    namespaceSelector: namespaceSelector ?? {},
    objectSelector: objectSelector ?? {},
    sideEffects,
    timeoutSeconds: timeoutSeconds ?? 10,
    admissionReviewVersions,
  };
  if (mutating) out.reinvocationPolicy = reinvocationPolicy ?? 'Never';
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return { ...out, ...rest };
}

export function defaultWebhookConfiguration(obj: Obj, mutating: boolean): void {
  if (Array.isArray(obj.webhooks)) obj.webhooks = obj.webhooks.map((h: unknown) => defaultWebhook(h, mutating));
}

const WEBHOOK_CONFIGURATIONS = new Map([
  ['MutatingWebhookConfiguration', true],
  ['ValidatingWebhookConfiguration', false],
]);

/**
 * The webhooks' defaulting of both configuration kinds, in the admission chain's mutating phase
 * (before the kinds' own hooks, after managedFields are tracked on update, as it always ran).
 */
export const webhookConfigurationDefaults: AdmissionPlugin = {
  name: 'WebhookConfigurationDefaults',
  handles: (r) => r.info.group === 'admissionregistration.k8s.io' && WEBHOOK_CONFIGURATIONS.has(r.info.kind),
  mutateCreate(_c, r, obj) {
    defaultWebhookConfiguration(obj, WEBHOOK_CONFIGURATIONS.get(r.info.kind) === true);
  },
  mutateUpdate(_c, r, next) {
    defaultWebhookConfiguration(next, WEBHOOK_CONFIGURATIONS.get(r.info.kind) === true);
  },
};
