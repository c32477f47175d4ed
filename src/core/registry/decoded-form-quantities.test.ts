import { describe, expect, it } from 'vitest';
import { canonicalizeQuantities } from './decoded-form';

describe('canonicalizeQuantities', () => {
  it('rewrites the quantities of a pod, in lists and maps, as Go marshals them', () => {
    const pod = {
      spec: {
        containers: [{ name: 'c', resources: { limits: { cpu: 1, memory: '1.5Gi' }, requests: { cpu: 0.5, memory: '1000Ki' } } }],
        overhead: { cpu: '100m' },
        volumes: [{ name: 'v', emptyDir: { sizeLimit: '1e3' } }],
      },
      metadata: { labels: { cpu: '0.5' } },
    };
    canonicalizeQuantities('io.k8s.api.core.v1.Pod', pod);
    expect(pod.spec.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '1536Mi' }, requests: { cpu: '500m', memory: '1000Ki' } });
    expect(pod.spec.overhead).toEqual({ cpu: '100m' });
    expect(pod.spec.volumes[0].emptyDir.sizeLimit).toBe('1e3');
    // Not a quantity: left alone.
    expect(pod.metadata.labels.cpu).toBe('0.5');
  });

  it('reaches pod templates, limit ranges and quotas; a value that does not parse is left for validation', () => {
    const d = { spec: { template: { spec: { containers: [{ resources: { limits: { memory: 2147483648, cpu: 2000 } } }] } } } };
    canonicalizeQuantities('io.k8s.api.apps.v1.Deployment', d);
    // A number is a decimal quantity: no binary suffix.
    expect(d.spec.template.spec.containers[0].resources.limits).toEqual({ memory: '2147483648', cpu: '2k' });
    const lr = { spec: { limits: [{ type: 'Container', default: { cpu: 2 }, maxLimitRequestRatio: { cpu: 'abc' } }] } };
    canonicalizeQuantities('io.k8s.api.core.v1.LimitRange', lr);
    expect(lr.spec.limits[0]).toEqual({ type: 'Container', default: { cpu: '2' }, maxLimitRequestRatio: { cpu: 'abc' } });
    const q = { spec: { hard: { 'requests.storage': '0.5Ti' } } };
    canonicalizeQuantities('io.k8s.api.core.v1.ResourceQuota', q);
    expect(q.spec.hard['requests.storage']).toBe('512Gi');
  });

  it('kinds without quantities are left as they are', () => {
    const cm = { data: { cpu: '0.5' } };
    canonicalizeQuantities('io.k8s.api.core.v1.ConfigMap', cm);
    expect(cm.data.cpu).toBe('0.5');
    canonicalizeQuantities('io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition', { spec: {} });
  });
});
