import { describe, expect, it } from 'vitest';
import { definitions } from '../../schema';
import { GoTypeChecker } from './go-types';
import type { SchemaContext } from './types';

const ctx = (root: string): SchemaContext => ({ definitions: definitions as SchemaContext['definitions'], root });
const pod = (spec: unknown, metadata: unknown = { name: 'p' }) => ({ apiVersion: 'v1', kind: 'Pod', metadata, spec });
const podError = (value: unknown) => new GoTypeChecker(ctx('io.k8s.api.core.v1.Pod')).firstError(value);

describe('GoTypeChecker', () => {
  it('accepts a well-typed object, nulls included', () => {
    expect(podError(pod({ containers: [{ name: 'c', image: 'x', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1', memory: 2 } } }], hostNetwork: null }))).toBeUndefined();
  });

  it('names the innermost struct, the field path without indices and the Go type', () => {
    expect(podError(pod({ containers: [{ name: 'c', image: true }] }))).toBe('json: cannot unmarshal bool into Go struct field Container.spec.containers.image of type string');
    expect(podError(pod('x'))).toBe('json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec');
    expect(podError(pod({ containers: ['x'] }))).toBe('json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type v1.Container');
    expect(podError(pod({ containers: {} }))).toBe('json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container');
    expect(podError(pod({}, { name: 'p', labels: { a: 1 } }))).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    expect(podError(pod({ hostNetwork: 'yes' }))).toBe('json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool');
  });

  it('words integers as Go does: the literal when it does not fit', () => {
    const port = (containerPort: unknown) => podError(pod({ containers: [{ name: 'c', ports: [{ containerPort }] }] }));
    expect(port('80')).toBe('json: cannot unmarshal string into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
    expect(port(80.5)).toBe('json: cannot unmarshal number 80.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
    expect(port(2 ** 31)).toBe('json: cannot unmarshal number 2147483648 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32');
    expect(podError(pod({ activeDeadlineSeconds: 1.5 }))).toBe('json: cannot unmarshal number 1.5 into Go struct field PodSpec.spec.activeDeadlineSeconds of type int64');
  });

  it('reports the first mistyped value in document order', () => {
    expect(podError(pod({ containers: [{ name: 'c', image: 1 }] }, { name: 'p', labels: { a: true } }))).toContain('ObjectMeta.metadata.labels');
    expect(podError({ spec: { containers: [{ name: 'c', image: 1 }] }, metadata: { labels: { a: true } } })).toContain('Container.spec.containers.image');
  });

  it('uses the own words of types that decode themselves', () => {
    expect(podError(pod({ containers: [{ name: 'c', resources: { limits: { cpu: true } } }] }))).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    const svc = (targetPort: unknown) => new GoTypeChecker(ctx('io.k8s.api.core.v1.Service')).firstError({ spec: { ports: [{ port: 80, targetPort }] } });
    expect(svc('http')).toBeUndefined();
    expect(svc(8080)).toBeUndefined();
    expect(svc(true)).toBe('json: cannot unmarshal bool into Go value of type int32');
    expect(podError(pod({}, { name: 'p', creationTimestamp: 5 }))).toBe('json: cannot unmarshal number into Go value of type string');
  });

  it('knows maps, byte strings and free-form fields', () => {
    const secret = (data: unknown) => new GoTypeChecker(ctx('io.k8s.api.core.v1.Secret')).firstError({ data });
    expect(secret({ a: 1 })).toBe('json: cannot unmarshal number into Go struct field Secret.data of type []uint8');
    expect(secret('x')).toBe('json: cannot unmarshal string into Go struct field Secret.data of type map[string][]uint8');
    // managedFields' fieldsV1 is free-form JSON.
    expect(podError(pod({}, { name: 'p', managedFields: [{ manager: 'm', fieldsV1: { 'f:x': 1 } }] }))).toBeUndefined();
  });
});
