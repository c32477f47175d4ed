import { describe, expect, it } from 'vitest';
import { convertFieldSelector, fieldSelectorToString, matchesFields, parseFieldSelector } from './fields';
import { fieldsFor } from './field-sets';
import { fieldSelectorsOf } from '../kinds';

describe('parseFieldSelector', () => {
  it('parses =, ==, != and escapes, sorting terms', () => {
    const s = parseFieldSelector('spec.nodeName!=n1,metadata.name==a\\,b\\=c\\\\');
    expect(s.requirements).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b=c\\' },
      { field: 'spec.nodeName', operator: '!=', value: 'n1' },
    ]);
    expect(fieldSelectorToString(s)).toBe('metadata.name=a\\,b\\=c\\\\,spec.nodeName!=n1');
    expect(parseFieldSelector('').requirements).toEqual([]);
    expect(parseFieldSelector('a=').requirements).toEqual([{ field: 'a', operator: '=', value: '' }]);
  });
  it('reports kube errors', () => {
    expect(() => parseFieldSelector('abc')).toThrow("invalid selector: 'abc'; can't understand 'abc'");
    expect(() => parseFieldSelector('a=b\\x')).toThrow('invalid field selector: invalid escape sequence: \\x');
    expect(() => parseFieldSelector('a=b\\')).toThrow('invalid field selector: invalid escape sequence: \\');
    expect(() => parseFieldSelector('a=b=c')).toThrow('invalid field selector: unescaped character in value: =');
  });
});

describe('convertFieldSelector + fieldsFor', () => {
  const pod = { metadata: { name: 'p1', namespace: 'default' }, spec: { nodeName: 'n1', restartPolicy: 'Always' }, status: { phase: 'Running', podIPs: [{ ip: '10.0.0.1' }] } };
  it('filters pods by supported fields', () => {
    const sel = convertFieldSelector(parseFieldSelector('status.phase=Running,spec.nodeName=n1'), { convertLabel: fieldSelectorsOf('', 'Pod')?.labels });
    expect(matchesFields(sel, fieldsFor(fieldSelectorsOf('', 'Pod')?.fields, pod))).toBe(true);
    const sel2 = convertFieldSelector(parseFieldSelector('status.podIP=10.0.0.2'), { convertLabel: fieldSelectorsOf('', 'Pod')?.labels });
    expect(matchesFields(sel2, fieldsFor(fieldSelectorsOf('', 'Pod')?.fields, pod))).toBe(false);
    const legacy = convertFieldSelector(parseFieldSelector('spec.host=n1'), { convertLabel: fieldSelectorsOf('', 'Pod')?.labels });
    expect(legacy.requirements[0].field).toBe('spec.nodeName');
  });
  it('rejects unsupported fields with the kind-specific wording', () => {
    expect(() => convertFieldSelector(parseFieldSelector('spec.foo=x'), { convertLabel: fieldSelectorsOf('', 'Pod')?.labels })).toThrow('field label not supported: spec.foo');
    expect(() => convertFieldSelector(parseFieldSelector('data.x=y'), { convertLabel: fieldSelectorsOf('', 'ConfigMap')?.labels })).toThrow(
      '"data.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
    expect(() => convertFieldSelector(parseFieldSelector('spec.x=y'), { custom: true })).toThrow('field label not supported: spec.x');
    expect(() => convertFieldSelector(parseFieldSelector('metadata.namespace=y'), { custom: true, namespaced: false })).toThrow(
      'field label not supported: metadata.namespace',
    );
    expect(() => convertFieldSelector(parseFieldSelector('metadata.namespace=a'), { convertLabel: fieldSelectorsOf('', 'Node')?.labels })).toThrow('field label not supported: metadata.namespace');
  });
  it('exposes events, secrets, namespaces, nodes, replicas, jobs, csrs', () => {
    const ev = { metadata: { name: 'e', namespace: 'd' }, involvedObject: { kind: 'Pod', name: 'p1', uid: 'u' }, reason: 'Started', source: { component: 'kubelet' }, type: 'Normal' };
    const f = fieldsFor(fieldSelectorsOf('', 'Event')?.fields, ev);
    expect(f['involvedObject.name']).toBe('p1');
    expect(f.source).toBe('kubelet');
    expect(f['involvedObject.namespace']).toBe('');
    const evs = convertFieldSelector(parseFieldSelector('regarding.name=p1,reportingController=k'), { convertLabel: fieldSelectorsOf('events.k8s.io', 'Event')?.labels });
    expect(evs.requirements.map((r) => r.field)).toEqual(['involvedObject.name', 'reportingComponent']);
    expect(matchesFields(evs, fieldsFor(fieldSelectorsOf('events.k8s.io', 'Event')?.fields, { metadata: { name: 'e', namespace: 'd' }, regarding: { name: 'p1' }, reportingController: 'k' }))).toBe(true);
    expect(fieldsFor(fieldSelectorsOf('', 'Secret')?.fields, { metadata: { name: 's', namespace: 'd' }, type: 'Opaque' }).type).toBe('Opaque');
    expect(fieldsFor(fieldSelectorsOf('', 'Namespace')?.fields, { metadata: { name: 'n' }, status: { phase: 'Active' } })).toEqual({ 'metadata.name': 'n', 'status.phase': 'Active', name: 'n' });
    expect(fieldsFor(fieldSelectorsOf('', 'Node')?.fields, { metadata: { name: 'n' }, spec: {} })['spec.unschedulable']).toBe('false');
    expect(fieldsFor(fieldSelectorsOf('apps', 'ReplicaSet')?.fields, { metadata: { name: 'r', namespace: 'd' }, status: { replicas: 3 } })['status.replicas']).toBe('3');
    expect(fieldsFor(fieldSelectorsOf('batch', 'Job')?.fields, { metadata: { name: 'j', namespace: 'd' }, status: {} })['status.successful']).toBe('0');
    expect(fieldsFor(fieldSelectorsOf('certificates.k8s.io', 'CertificateSigningRequest')?.fields, { metadata: { name: 'c' }, spec: { signerName: 'x/y' } })['spec.signerName']).toBe('x/y');
  });
  it('metadata.name on a custom resource', () => {
    const sel = convertFieldSelector(parseFieldSelector('metadata.name=w1'), { custom: true });
    expect(matchesFields(sel, fieldsFor(fieldSelectorsOf('example.com', 'Widget')?.fields, { metadata: { name: 'w1', namespace: 'd' } }))).toBe(true);
    expect(matchesFields(sel, fieldsFor(fieldSelectorsOf('example.com', 'Widget')?.fields, { metadata: { name: 'w2', namespace: 'd' } }))).toBe(false);
  });
});
