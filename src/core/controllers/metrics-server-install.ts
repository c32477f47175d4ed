// What metrics-server's install manifest (components.yaml, v0.6) puts into a cluster beside the
// Deployment, for the parts a client can see from here: the APIService that registers
// metrics.k8s.io/v1beta1 with the aggregator, and the ClusterRole whose aggregation labels give
// view, edit and admin read access to metrics (so `kubectl top` works for them). The simulated
// metrics-server installs them as add-ons when it starts (addons.ts) and leaves existing ones
// alone (a stored cluster keeps what an earlier start made, as a real cluster keeps an installed
// manifest). Its Service, ServiceAccount and bindings are not made:
// the aggregator reaches this metrics-server in process (its Available condition says so).
import type { Obj } from '../registry/objects';
import { ApiCallError, type ApiClient } from './client';
import { ENSURE_EXISTS } from './addons';

const APP_LABEL = { 'k8s-app': 'metrics-server', ...ENSURE_EXISTS };

export const METRICS_API_SERVICE: Obj = {
  apiVersion: 'apiregistration.k8s.io/v1',
  kind: 'APIService',
  metadata: { name: 'v1beta1.metrics.k8s.io', labels: APP_LABEL },
  spec: {
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { name: 'metrics-server', namespace: 'kube-system' },
    groupPriorityMinimum: 100,
    versionPriority: 100,
    insecureSkipTLSVerify: true,
  },
};

export const AGGREGATED_METRICS_READER: Obj = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: {
    name: 'system:aggregated-metrics-reader',
    labels: {
      ...APP_LABEL,
      'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
      'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
      'rbac.authorization.k8s.io/aggregate-to-view': 'true',
    },
  },
  rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
};

/** Creates `obj` unless it exists (409) or its group is not served (404, a --runtime-config that turns it off). */
async function createIfMissing(client: ApiClient, path: string, obj: Obj): Promise<void> {
  try {
    await client.create(path, obj);
  } catch (err) {
    if (!(err instanceof ApiCallError && (err.code === 409 || err.code === 404))) throw err;
  }
}

/** Creates the manifest's ClusterRole and APIService that are missing. */
export async function installMetricsServer(client: ApiClient): Promise<void> {
  await createIfMissing(client, '/apis/rbac.authorization.k8s.io/v1/clusterroles', AGGREGATED_METRICS_READER);
  await createIfMissing(client, '/apis/apiregistration.k8s.io/v1/apiservices', METRICS_API_SERVICE);
}
