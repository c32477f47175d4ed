// The bootstrap policy exists whenever the RBAC API is served, whatever the authorizer
// (kube-apiserver's rbac/bootstrap-roles post-start hook belongs to the RBAC storage).
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/api-server';

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

describe('bootstrap roles and bindings', () => {
  it('exist under AlwaysAllow (the default authorizer)', async () => {
    const c = await startTestServer();
    try {
      const admin = await c.get(`${RBAC}/clusterroles/cluster-admin`);
      expect(admin.status).toBe(200);
      expect(admin.json.rules).toEqual([
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ]);
      expect(admin.json.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
      for (const name of ['admin', 'edit', 'view', 'system:discovery', 'system:basic-user']) expect((await c.get(`${RBAC}/clusterroles/${name}`)).status).toBe(200);
      const binding = await c.get(`${RBAC}/clusterrolebindings/cluster-admin`);
      expect(binding.json.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
      // view is aggregated, as in a running cluster.
      expect((await c.get(`${RBAC}/clusterroles/view`)).json.rules.length).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
  });

  it('are not created when the RBAC API is switched off', async () => {
    const c = await startTestServer({ runtimeConfig: 'rbac.authorization.k8s.io/v1=false' });
    try {
      expect((await c.get(`${RBAC}/clusterroles/cluster-admin`)).status).toBe(404);
      // Nothing was written for it: the store's only cluster-scoped RBAC keys are absent.
      const snapshot = await c.api.snapshot!();
      expect(JSON.stringify(snapshot)).not.toContain('cluster-admin');
    } finally {
      await c.close();
    }
  });
});
