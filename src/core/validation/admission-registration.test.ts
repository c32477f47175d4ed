import { describe, expect, it } from 'vitest';
import { defaultWebhookConfiguration } from '../admission/webhooks/config-defaults';
import { fieldErrorBody, type FieldError } from '../meta/status';
import { rulesFor } from '../kinds';

const GROUP = 'admissionregistration.k8s.io';
const validating = rulesFor(GROUP, 'ValidatingWebhookConfiguration')!;
const mutating = rulesFor(GROUP, 'MutatingWebhookConfiguration')!;

/** A valid webhook, as a client would send it (defaults are filled by `config`). */
const hook = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'hook.example.com',
  clientConfig: { url: 'https://hooks.example.com/check' },
  rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...extra,
});

/** A configuration after the v1 defaulting that runs before validation. */
function config(webhooks: unknown[], isMutating = false): any {
  const obj: any = { apiVersion: `${GROUP}/v1`, kind: isMutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration', metadata: { name: 'x' }, webhooks };
  defaultWebhookConfiguration(obj, isMutating);
  return obj;
}

/** The errors as kube prints them: `<field>: <body>`. */
const text = (errs: FieldError[]): string[] => errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
const errsOf = (webhooks: unknown[], isMutating = false): string[] => text((isMutating ? mutating : validating).validateCreate!(config(webhooks, isMutating)));
/** Errors of one webhook built from the valid one. */
const hookErrs = (extra: Record<string, unknown>, isMutating = false): string[] => errsOf([hook(extra)], isMutating);

const RFC1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const FORM = '; desired format: https://host[/path]';

describe('valid webhook configurations', () => {
  it('pass on create and update, with url or service clients', () => {
    const hooks = [
      hook(),
      hook({ name: 'svc.example.com', clientConfig: { service: { namespace: 'ns', name: 'svc', path: '/apis/v1/check' } }, failurePolicy: 'Ignore', matchPolicy: 'Exact', timeoutSeconds: 30 }),
      hook({ name: 'all.example.com', sideEffects: 'NoneOnDryRun', admissionReviewVersions: ['v2', 'v1beta1'], rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'], scope: 'Namespaced' }] }),
      hook({ name: 'sel.example.com', namespaceSelector: { matchLabels: { team: 'a' } }, objectSelector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] } }),
    ];
    expect(validating.validateCreate!(config(hooks))).toEqual([]);
    expect(mutating.validateCreate!(config([...hooks, hook({ name: 'again.example.com', reinvocationPolicy: 'IfNeeded' })], true))).toEqual([]);
    expect(validating.validateUpdate!(config(hooks), config([hook()]))).toEqual([]);
    expect(validating.validateCreate!(config([]))).toEqual([]);
    expect(validating.validateCreate!({ metadata: { name: 'x' } })).toEqual([]);
  });

  it('allow the subresource wildcards that do not overlap', () => {
    expect(hookErrs({ rules: [{ operations: ['CREATE'], apiGroups: ['a'], apiVersions: ['a'], resources: ['*', 'a/b', 'a/*', '*/b'] }] })).toEqual([]);
    expect(hookErrs({ rules: [{ operations: ['CREATE'], apiGroups: ['a'], apiVersions: ['a'], resources: ['a/*', 'a'] }] })).toEqual([]);
    // Upstream only remembers the last resource without a subresource.
    expect(hookErrs({ rules: [{ operations: ['CREATE'], apiGroups: ['a'], apiVersions: ['a'], resources: ['a', '*'] }] })).toEqual([]);
  });
});

describe('webhook names', () => {
  it('are required fully qualified DNS subdomains of three segments, unique in the configuration', () => {
    expect(validating.validateCreate!(config([hook({ name: '' })]))).toEqual([{ type: 'FieldValueRequired', field: 'webhooks[0].name' }]);
    expect(hookErrs({ name: 'k8s.io' })).toEqual(['webhooks[0].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots']);
    expect(hookErrs({ name: 'Bad_Name.example.com' })).toEqual([`webhooks[0].name: Invalid value: "Bad_Name.example.com": ${RFC1123_SUBDOMAIN}`]);
    expect(hookErrs({ name: `${'a'.repeat(250)}.b.c` })).toEqual([`webhooks[0].name: Invalid value: "${'a'.repeat(250)}.b.c": must be no more than 253 characters`]);
    expect(errsOf([hook(), hook({ name: 'other.example.com' }), hook()])).toEqual(['webhooks[2].name: Duplicate value: "hook.example.com"']);
    expect(validating.validateCreate!(config([hook(), hook()]))[0]).toEqual({ type: 'FieldValueDuplicate', field: 'webhooks[1].name', value: 'hook.example.com' });
  });
});

describe('admissionReviewVersions', () => {
  it('are required, DNS-1035 labels without duplicates, and include v1 or v1beta1', () => {
    expect(hookErrs({ admissionReviewVersions: [] })).toEqual(['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
    expect(hookErrs({ admissionReviewVersions: ['v1', 'v1'] })).toEqual(['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version']);
    expect(hookErrs({ admissionReviewVersions: ['0v'] })).toEqual([
      `webhooks[0].admissionReviewVersions[0]: Invalid value: "0v": ${DNS1035}`,
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"0v"}: must include at least one of v1, v1beta1',
    ]);
    expect(validating.validateCreate!(config([hook({ admissionReviewVersions: ['v2'] })]))).toEqual([
      { type: 'FieldValueInvalid', field: 'webhooks[0].admissionReviewVersions', value: ['v2'], valueText: '[]string{"v2"}', detail: 'must include at least one of v1, v1beta1' },
    ]);
  });
});

describe('webhook policies', () => {
  it('restrict sideEffects to None and NoneOnDryRun in v1', () => {
    expect(hookErrs({ sideEffects: undefined })).toEqual(['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
    expect(hookErrs({ sideEffects: 'Some' })).toEqual(['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
  });

  it('check failurePolicy, matchPolicy, timeoutSeconds and the mutating reinvocationPolicy', () => {
    expect(hookErrs({ failurePolicy: 'Always', matchPolicy: 'Loose', timeoutSeconds: 31 })).toEqual([
      'webhooks[0].failurePolicy: Unsupported value: "Always": supported values: "Fail", "Ignore"',
      'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
    ]);
    expect(hookErrs({ timeoutSeconds: 0 })).toEqual(['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']);
    expect(hookErrs({ reinvocationPolicy: 'Always' }, true)).toEqual(['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
    // A ValidatingWebhook has no such field.
    expect(hookErrs({ reinvocationPolicy: 'Always' })).toEqual([]);
  });

  it('validate the namespace and object selectors', () => {
    expect(hookErrs({ namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] }, objectSelector: { matchLabels: { a: '-x' } } })).toEqual([
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      `webhooks[0].objectSelector.matchLabels: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    ]);
  });
});

describe('rules', () => {
  const rule = (r: Record<string, unknown>) => hookErrs({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], ...r }] });

  it('need operations, groups, versions and resources; a null rule is an empty one', () => {
    expect(hookErrs({ rules: [null] })).toEqual([
      'webhooks[0].rules[0].operations: Required value',
      'webhooks[0].rules[0].apiGroups: Required value',
      'webhooks[0].rules[0].apiVersions: Required value',
      'webhooks[0].rules[0].resources: Required value',
    ]);
    expect(rule({ apiVersions: ['v1', ''], resources: ['pods', ''] })).toEqual(['webhooks[0].rules[0].apiVersions[1]: Required value', 'webhooks[0].rules[0].resources[1]: Required value']);
  });

  it('support only known operations and scopes', () => {
    expect(rule({ operations: ['CREATE', 'PATCH', ''], scope: 'Global' })).toEqual([
      'webhooks[0].rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[0].rules[0].operations[2]: Unsupported value: "": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'webhooks[0].rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]);
  });

  it("keep '*' alone in operations, groups and versions", () => {
    expect(rule({ operations: ['CREATE', '*'], apiGroups: ['*', 'apps'], apiVersions: ['v1', '*'] })).toEqual([
      `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"CREATE", "*"}: if '*' is present, must not specify other operations`,
      `webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other API groups`,
      `webhooks[0].rules[0].apiVersions: Invalid value: []string{"v1", "*"}: if '*' is present, must not specify other API versions`,
    ]);
  });

  it('refuse overlapping resource wildcards', () => {
    expect(rule({ resources: ['*', 'a'] })).toEqual([`webhooks[0].rules[0].resources: Invalid value: []string{"*", "a"}: if '*' is present, must not specify other resources without subresources`]);
    expect(rule({ resources: ['*/*', 'a'] })).toEqual([`webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "a"}: if '*/*' is present, must not specify other resources`]);
    expect(rule({ resources: ['a/*', 'a/x', '*/b', 'y/b'] })).toEqual([
      `webhooks[0].rules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x`,
      `webhooks[0].rules[0].resources[3]: Invalid value: "y/b": if '*/b' is present, must not specify y/b`,
    ]);
  });
});

describe('clientConfig', () => {
  const url = (u: string) => hookErrs({ clientConfig: { url: u } });
  const service = (s: Record<string, unknown>) => hookErrs({ clientConfig: { service: { namespace: 'ns', name: 'svc', ...s } } });
  const REQUIRED = 'webhooks[0].clientConfig: Required value: exactly one of url or service is required';

  it('needs exactly one of url and service', () => {
    expect(hookErrs({ clientConfig: {} })).toEqual([REQUIRED]);
    expect(hookErrs({ clientConfig: undefined })).toEqual([REQUIRED]);
    expect(hookErrs({ clientConfig: { url: 'https://h', service: { namespace: 'ns', name: 'svc' } } })).toEqual([REQUIRED]);
  });

  it('takes only https URLs with a host and no user, fragment or query', () => {
    const P = 'webhooks[0].clientConfig.url';
    expect(url('http://example.com')).toEqual([`${P}: Invalid value: "http": 'https' is the only allowed URL scheme${FORM}`]);
    expect(url('')).toEqual([`${P}: Invalid value: "": 'https' is the only allowed URL scheme${FORM}`, `${P}: Invalid value: "": host must be specified${FORM}`]);
    expect(url('https:///fancy/webhook')).toEqual([`${P}: Invalid value: "": host must be specified${FORM}`]);
    expect(url('HTTPS://example.com:8443/a/b')).toEqual([]);
    expect(url('https://harry.potter@example.com/')).toEqual([`${P}: Invalid value: "harry.potter": user information is not permitted in the URL`]);
    expect(url('https://u:p%40ss@example.com/')).toEqual([`${P}: Invalid value: "u:p%40ss": user information is not permitted in the URL`]);
    expect(url('https://example.com/#bookmark')).toEqual([`${P}: Invalid value: "bookmark": fragments are not permitted in the URL`]);
    expect(url('https://example.com?arg=value')).toEqual([`${P}: Invalid value: "arg=value": query parameters are not permitted in the URL`]);
    expect(url('https://example.com/x?')).toEqual([]);
  });

  it("reports Go's url.Parse errors", () => {
    const bad = (u: string) => url(u)[0];
    const P = 'webhooks[0].clientConfig.url: Required value: url must be a valid URL: ';
    expect(bad('::')).toBe(`${P}parse "::": missing protocol scheme${FORM}`);
    expect(bad('https://exa mple.com')).toBe(`${P}parse "https://exa mple.com": invalid character " " in host name${FORM}`);
    expect(bad('https://example.com:x/')).toBe(`${P}parse "https://example.com:x/": invalid port ":x" after host${FORM}`);
    expect(bad('https://[::1/')).toBe(`${P}parse "https://[::1/": missing ']' in host${FORM}`);
    expect(bad('https://example.com/%zz')).toBe(`${P}parse "https://example.com/%zz": invalid URL escape "%zz"${FORM}`);
    expect(bad('https://example.com/#%4')).toBe(`${P}parse "https://example.com/#%4": invalid URL escape "%4"${FORM}`);
    expect(bad('a b:c')).toBe(`${P}parse "a b:c": first path segment in URL cannot contain colon${FORM}`);
    expect(bad('https://example.com/\n')).toBe(`${P}parse "https://example.com/\\n": net/url: invalid control character in URL${FORM}`);
    expect(bad('https://a|b@example.com')).toBe(`${P}parse "https://a|b@example.com": net/url: invalid userinfo${FORM}`);
    expect(url('::')).toHaveLength(1);
  });

  it('needs a service name, namespace, valid port and path', () => {
    const P = 'webhooks[0].clientConfig.service';
    expect(service({ port: 8443, path: '/' })).toEqual([]);
    // Upstream passes (name, namespace) to ValidateWebhookService(namespace, name), so each
    // missing field is reported under the other's path.
    expect(service({ namespace: '' })).toEqual([`${P}.name: Required value: service name is required`]);
    expect(service({ name: '' })).toEqual([`${P}.namespace: Required value: service namespace is required`]);
    expect(service({ port: 0 })).toEqual([`${P}.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive`]);
    expect(service({ port: 65536 })).toEqual([`${P}.port: Invalid value: 65536: port is not valid: must be between 1 and 65535, inclusive`]);
    expect(service({ path: 'foo/' })).toEqual([`${P}.path: Invalid value: "foo/": must start with a '/'`]);
    expect(service({ path: '//' })).toEqual([`${P}.path: Invalid value: "//": segment[0] may not be empty`]);
    expect(service({ path: '/foo//bar/' })).toEqual([`${P}.path: Invalid value: "/foo//bar/": segment[1] may not be empty`]);
    expect(service({ path: '/apis/foo.bar/v1alpha1/--bad' })).toEqual([`${P}.path: Invalid value: "/apis/foo.bar/v1alpha1/--bad": segment[3]: ${RFC1123_SUBDOMAIN}`]);
  });
});

describe('ordering and garbage', () => {
  it('reports a webhook in upstream order, then its review versions and a duplicate name', () => {
    expect(errsOf([{ rules: [null], sideEffects: '1', failurePolicy: 'a' }, null])).toEqual([
      'webhooks[0].name: Required value',
      'webhooks[0].rules[0].operations: Required value',
      'webhooks[0].rules[0].apiGroups: Required value',
      'webhooks[0].rules[0].apiVersions: Required value',
      'webhooks[0].rules[0].resources: Required value',
      'webhooks[0].failurePolicy: Unsupported value: "a": supported values: "Fail", "Ignore"',
      'webhooks[0].sideEffects: Unsupported value: "1": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[1].name: Required value',
      'webhooks[1].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[1].clientConfig: Required value: exactly one of url or service is required',
      'webhooks[1].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
    ]);
    expect(errsOf([hook({ name: 'x', timeoutSeconds: 40, reinvocationPolicy: 'No', clientConfig: { url: 'http://h' }, admissionReviewVersions: ['x'] }), hook({ name: 'x' })], true)).toEqual([
      'webhooks[0].name: Invalid value: "x": should be a domain with at least three segments separated by dots',
      'webhooks[0].timeoutSeconds: Invalid value: 40: the timeout value must be between 1 and 30 seconds',
      'webhooks[0].reinvocationPolicy: Unsupported value: "No": supported values: "IfNeeded", "Never"',
      `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme${FORM}`,
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"x"}: must include at least one of v1, v1beta1',
      'webhooks[1].name: Invalid value: "x": should be a domain with at least three segments separated by dots',
      'webhooks[1].name: Duplicate value: "x"',
    ]);
  });
});

describe('updates', () => {
  const update = (next: unknown[], old: unknown[], isMutating = false) => text((isMutating ? mutating : validating).validateUpdate!(config(next, isMutating), config(old, isMutating)));

  it('are validated like creates', () => {
    expect(update([hook({ failurePolicy: 'Sometimes' })], [hook()])).toEqual(['webhooks[0].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"']);
    expect(update([hook(), hook()], [hook()], true)).toEqual(['webhooks[1].name: Duplicate value: "hook.example.com"']);
    expect(update([hook({ admissionReviewVersions: ['v9'] })], [hook()])).toEqual(['webhooks[0].admissionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1']);
  });

  it('keep allowing what the stored object already broke', () => {
    // Duplicate names, unknown review versions and side effects (all accepted by v1beta1 once).
    expect(update([hook(), hook()], [hook(), hook()])).toEqual([]);
    expect(update([hook({ admissionReviewVersions: ['v9'] })], [hook({ admissionReviewVersions: ['v8'] })])).toEqual([]);
    expect(update([hook({ sideEffects: 'Some' })], [hook({ sideEffects: 'Unknown' })], true)).toEqual([]);
    expect(update([hook({ sideEffects: undefined })], [hook({ sideEffects: 'Some' })])).toEqual(['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, Some, Unknown']);
    expect(update([hook({ sideEffects: 'Other' })], [hook({ sideEffects: 'Some' })])).toEqual([
      'webhooks[0].sideEffects: Unsupported value: "Other": supported values: "None", "NoneOnDryRun", "Some", "Unknown"',
    ]);
    // Each relaxation is independent: the other checks stay.
    expect(update([hook({ sideEffects: 'Some' }), hook({ sideEffects: 'Some' })], [hook({ sideEffects: 'Some' })])).toEqual(['webhooks[1].name: Duplicate value: "hook.example.com"']);
  });
});
