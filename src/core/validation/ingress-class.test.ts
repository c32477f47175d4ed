import { describe, expect, it } from 'vitest';
import { invalid as invalidStatus } from '../meta/status';
import { rulesFor } from '../kinds';

const ic = rulesFor('networking.k8s.io', 'IngressClass')!;
const make = (spec: object): any => {
  const obj: any = { apiVersion: 'networking.k8s.io/v1', metadata: { name: 'nginx' }, spec };
  ic.defaults!(obj);
  return obj;
};
const message = (spec: object) => invalidStatus('networking.k8s.io', 'IngressClass', 'nginx', ic.validateCreate!(make(spec))).message;
const PREFIX = 'IngressClass.networking.k8s.io "nginx" is invalid: ';

describe('IngressClass defaults', () => {
  it('gives parameters without a scope the Cluster scope', () => {
    expect(make({ controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Config', name: 'c' } }).spec.parameters.scope).toBe('Cluster');
    expect(make({ controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Config', name: 'c', scope: 'Namespace', namespace: 'x' } }).spec.parameters.scope).toBe('Namespace');
    expect(make({ controller: 'k8s.io/ingress-nginx' }).spec).toEqual({ controller: 'k8s.io/ingress-nginx' });
  });
});

describe('IngressClass controller', () => {
  it('is required and a domain-prefixed path', () => {
    expect(ic.validateCreate!(make({ controller: 'example.com/ingress-controller' }))).toEqual([]);
    expect(message({})).toBe(`${PREFIX}spec.controller: Required value`);
    expect(message({ controller: 'nginx' })).toBe(`${PREFIX}spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")`);
    expect(message({ controller: 'example.com/' })).toBe(`${PREFIX}spec.controller: Invalid value: "example.com/": must be a domain-prefixed path (such as "acme.io/foo")`);
    expect(message({ controller: 'Example.com/a b' })).toBe(
      `${PREFIX}[spec.controller: Invalid value: "Example.com": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
        `spec.controller: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')]`,
    );
  });

  it('is at most 250 bytes', () => {
    expect(message({ controller: `example.com/${'a'.repeat(239)}` })).toBe(`${PREFIX}spec.controller: Too long: must have at most 250 bytes`);
    expect(ic.validateCreate!(make({ controller: `example.com/${'a'.repeat(238)}` }))).toEqual([]);
  });

  it('is immutable', () => {
    const old = make({ controller: 'example.com/a' });
    expect(ic.validateUpdate!(make({ controller: 'example.com/a', parameters: { kind: 'K', name: 'n' } }), old, '')).toEqual([]);
    expect(invalidStatus('networking.k8s.io', 'IngressClass', 'nginx', ic.validateUpdate!(make({ controller: 'example.com/b' }), old, '')).message).toBe(
      `${PREFIX}spec.controller: Invalid value: "example.com/b": field is immutable`,
    );
  });
});

describe('IngressClass parameters', () => {
  const controller = 'example.com/a';
  it('need kind and name, path-segment names, and a DNS apiGroup when given', () => {
    expect(message({ controller, parameters: { apiGroup: 'Bad_Group' } })).toBe(
      `${PREFIX}[spec.parameters.apiGroup: Invalid value: "Bad_Group": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), ` +
        'spec.parameters.kind: Required value: kind is required, spec.parameters.name: Required value: name is required]',
    );
    expect(message({ controller, parameters: { kind: 'a/b', name: '..' } })).toBe(
      `${PREFIX}[spec.parameters.kind: Invalid value: "a/b": may not contain '/', spec.parameters.name: Invalid value: "..": may not be '..']`,
    );
  });

  it('follow the scope rules', () => {
    const p = (extra: object) => ({ controller, parameters: { kind: 'K', name: 'n', ...extra } });
    expect(ic.validateCreate!(make(p({ scope: 'Namespace', namespace: 'team-a' })))).toEqual([]);
    expect(message(p({ scope: 'Namespace' }))).toBe(`${PREFIX}spec.parameters.namespace: Required value: \`parameters.scope\` is set to 'Namespace'`);
    expect(message(p({ scope: 'Namespace', namespace: 'Team_A' }))).toMatch(/spec\.parameters\.namespace: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of/);
    expect(message(p({ namespace: 'team-a' }))).toBe(`${PREFIX}spec.parameters.namespace: Forbidden: \`parameters.scope\` is set to 'Cluster'`);
    expect(message(p({ scope: 'Global' }))).toBe(`${PREFIX}spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"`);
    // Without defaults (scope cannot be missing after them) the scope is required.
    expect(ic.validateCreate!({ spec: { controller, parameters: { kind: 'K', name: 'n' } } })).toEqual([{ type: 'FieldValueRequired', field: 'spec.parameters.scope' }]);
  });
});
