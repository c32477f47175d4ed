import { describe, expect, it } from 'vitest';
import { rootType } from './schema';
import { appliedTypeErrors } from './validate-applied';

const deploymentType = rootType({ definition: 'io.k8s.api.apps.v1.Deployment' });
const serviceType = rootType({ definition: 'io.k8s.api.core.v1.Service' });
const deployment = (spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec });

describe('appliedTypeErrors', () => {
  it('accepts a well-typed configuration, nulls, int-or-string and quantities of either kind', () => {
    const containers = [{ name: 'c', image: 'x', resources: { limits: { cpu: 1, memory: '1Gi' } }, ports: [{ containerPort: 80 }] }];
    expect(appliedTypeErrors(deployment({ replicas: 2, paused: null, strategy: { rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } }, template: { spec: { containers } } }), deploymentType)).toEqual([]);
    expect(appliedTypeErrors({ spec: { ports: [{ port: 80, targetPort: 'http' }, { port: 81, targetPort: 8081 }] } }, serviceType)).toEqual([]);
  });

  it('words each scalar mismatch as structured-merge-diff does, with list-map keys in the path, sorted', () => {
    const errs = appliedTypeErrors(
      deployment({ replicas: '3', paused: 'yes', selector: { matchLabels: { app: true } }, template: { spec: { containers: [{ name: 'c', image: 5, ports: [{ containerPort: '80' }] }] } } }),
      deploymentType,
    );
    expect(errs).toEqual([
      '.spec.paused: expected boolean, got &{yes}',
      '.spec.replicas: expected numeric (int or float), got string',
      '.spec.selector.matchLabels.app: expected string, got &value.valueUnstructured{Value:true}',
      '.spec.template.spec.containers[name="c"].image: expected string, got &value.valueUnstructured{Value:5}',
      '.spec.template.spec.containers[name="c"].ports[containerPort="80",protocol="TCP"].containerPort: expected numeric (int or float), got string',
    ]);
  });

  it('prints maps and lists in Go syntax', () => {
    expect(appliedTypeErrors(deployment({ replicas: { a: 1 }, revisionHistoryLimit: [1, 'x'] }), deploymentType)).toEqual([
      '.spec.replicas: expected numeric (int or float), got map[string]interface {}',
      '.spec.revisionHistoryLimit: expected numeric (int or float), got []interface {}',
    ]);
    expect(appliedTypeErrors({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: { b: [1, 'x'] } } }, rootType({ definition: 'io.k8s.api.core.v1.ConfigMap' }))).toEqual([
      '.data.a: expected string, got &value.valueUnstructured{Value:map[string]interface {}{"b":[]interface {}{1, "x"}}}',
    ]);
  });

  it('a field the schema does not declare cannot be typed; open maps, free-form objects and preserved fields can', () => {
    expect(appliedTypeErrors(deployment({ bogus: 1, template: { spec: { containers: [{ name: 'c', nope: true }] } } }), deploymentType)).toEqual([
      '.spec.bogus: field not declared in schema',
      '.spec.template.spec.containers[name="c"].nope: field not declared in schema',
    ]);
    expect(appliedTypeErrors({ metadata: { labels: { any: 'x' }, annotations: { y: 'z' } }, spec: { template: { metadata: { labels: { a: 'b' } } } } }, deploymentType)).toEqual([]);
    const crd = rootType({
      openAPIV3Schema: {
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { size: { type: 'integer' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, inner: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } } } },
        },
      },
    });
    // apiVersion, kind and metadata exist on every custom resource and embedded resource, declared or not.
    const cr = { apiVersion: 'example.com/v1', kind: 'W', metadata: { name: 'w', labels: { a: 'b' } }, spec: { size: 1, free: { x: { y: 1 } }, inner: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } } };
    expect(appliedTypeErrors(cr, crd)).toEqual([]);
    expect(appliedTypeErrors({ ...cr, spec: { ...cr.spec, extra: 1 }, top: 2 }, crd)).toEqual(['.spec.extra: field not declared in schema', '.top: field not declared in schema']);
  });
});
