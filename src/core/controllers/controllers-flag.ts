// kube-controller-manager's --controllers: which controllers of the one list run. A list of
// names, `*` for every controller on by default, `-name` to switch one off (the first mention of
// a name wins; without `*` only the named ones run). Names are checked against v1.23's list, so
// a flag written for a real kube-controller-manager is accepted whether or not the controller
// exists here.
import { StartupError } from '../meta/startup-error';

/** kube-controller-manager v1.23's KnownControllers. */
const KNOWN_CONTROLLERS = new Set([
  'attachdetach', 'bootstrapsigner', 'cloud-node-lifecycle', 'clusterrole-aggregation', 'cronjob', 'csrapproving',
  'csrcleaner', 'csrsigning', 'daemonset', 'deployment', 'disruption', 'endpoint', 'endpointslice',
  'endpointslicemirroring', 'ephemeral-volume', 'garbagecollector', 'horizontalpodautoscaling', 'job', 'namespace',
  'nodeipam', 'nodelifecycle', 'persistentvolume-binder', 'persistentvolume-expander', 'podgc', 'pv-protection',
  'pvc-protection', 'replicaset', 'replicationcontroller', 'resourcequota', 'root-ca-cert-publisher', 'route',
  'service', 'serviceaccount', 'serviceaccount-token', 'statefulset', 'tokencleaner', 'ttl', 'ttl-after-finished',
]);

/**
 * The simulated cluster's components that kube-controller-manager has no name for: the simulated
 * nodes, their kubelets, kube-scheduler and the storage add-on's provisioner (see
 * core/controllers/controller-list.ts). They answer to the same flag.
 */
for (const name of ['nodes', 'kubelet', 'scheduler', 'metrics-server', 'storage-provisioner']) KNOWN_CONTROLLERS.add(name);

/** ControllersDisabledByDefault in v1.23. */
const DISABLED_BY_DEFAULT = new Set(['bootstrapsigner', 'tokencleaner']);

export type ControllerSelection = (name: string) => boolean;

/** Parses the flag's value (default `*`); an unknown name fails start-up as kube's validation does. */
export function parseControllers(text = '*'): ControllerSelection {
  const list = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const errors = list.filter((c) => c !== '*' && !KNOWN_CONTROLLERS.has(c.replace(/^-/, ''))).map((c) => `${JSON.stringify(c.replace(/^-/, ''))} is not in the list of known controllers`);
  if (errors.length) throw new StartupError(errors.join(', '));
  return (name) => {
    let star = false;
    for (const c of list) {
      if (c === name) return true;
      if (c === `-${name}`) return false;
      if (c === '*') star = true;
    }
    return star && !DISABLED_BY_DEFAULT.has(name);
  };
}
