import { describe, expect, it } from 'vitest';
import { omitEmptyCollections } from './decoded-form';

describe('omitEmptyCollections', () => {
  it("drops a pod template's empty optional maps and lists, at any depth; structs and required lists stay", () => {
    const d = {
      metadata: { name: 'd', annotations: {}, finalizers: [], managedFields: [] },
      spec: {
        selector: { matchLabels: { app: 'x' }, matchExpressions: [] },
        template: {
          metadata: { labels: { app: 'x' } },
          spec: {
            nodeSelector: {},
            tolerations: [],
            containers: [{ name: 'c', image: 'i', env: [], ports: [], resources: {}, securityContext: {} }],
            volumes: [],
          },
        },
      },
    };
    omitEmptyCollections('io.k8s.api.apps.v1.Deployment', d);
    expect(d).toEqual({
      // ObjectMeta's empty maps and lists go too, except managedFields: `[]` resets them.
      metadata: { name: 'd', managedFields: [] },
      spec: {
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i', resources: {}, securityContext: {} }] } },
      },
    });
  });

  it('a required list stays even when empty; so do the lists Go declares without omitempty', () => {
    const pod = { spec: { containers: [] } };
    omitEmptyCollections('io.k8s.api.core.v1.Pod', pod);
    expect(pod.spec.containers).toEqual([]);
    const role = { rules: [] };
    omitEmptyCollections('io.k8s.api.rbac.v1.ClusterRole', role);
    expect(role.rules).toEqual([]);
    const cm = { data: {}, binaryData: {} };
    omitEmptyCollections('io.k8s.api.core.v1.ConfigMap', cm);
    expect(cm).toEqual({});
  });
});
