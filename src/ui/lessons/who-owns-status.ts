import { apply, DEPLOY, done, MERGE, notYet, ownerNames, remove } from './checks';
import { deploymentPath, deploymentYaml, PODS, specReplicas, statusOf } from './cluster-checks';
import type { KubeObject, Lesson } from './types';

const NAME = 'owners';
const PATH = deploymentPath(NAME);

export const whoOwnsStatusLesson: Lesson = {
  id: 'who-owns-status',
  title: 'Who owns status',
  summary: 'You own the spec you wrote; the controllers and the kubelet own the status they report — as field managers like you.',
  object: PATH,
  cluster: true,
  setup: [remove(PATH)],
  steps: [
    {
      title: 'Apply a Deployment, watch the controller report',
      text: 'Apply a Deployment as alice. kube-controller-manager sees it at once: it creates a ReplicaSet and writes the Deployment’s `status` through the `status` subresource.\n\nOpen the Deployment after sending: the status lines carry a second manager, `kube-controller-manager`, with operation `Update` on subresource `status`.',
      requests: [apply(PATH, 'alice', deploymentYaml(NAME, 'nginx:1.21', 2))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f owners.yaml',
      hint: 'Send the apply; the controller answers within a moment (if the cluster is switched off in Settings, nothing will).',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        if (!d) return notYet('The Deployment "owners" does not exist yet.');
        const status = statusOwner(d);
        if (!status) return notYet('No manager owns status yet: is the simulated cluster running (Settings)?');
        return done(`alice owns spec.replicas; ${status.manager} (${status.operation}, subresource ${status.subresource}) owns status.`);
      },
    },
    {
      title: 'Write status yourself',
      text: 'Status is a report, not an intent. Merge-patch `status.replicas: 7` through the status subresource as alice: the API accepts it (you may write status), and alice now owns that field.\n\nThe controller sees the change, recomputes the truth and writes it back: `status.replicas` returns to 2 and ownership returns to kube-controller-manager.',
      requests: [{ method: 'PATCH', path: `${PATH}/status?fieldManager=alice`, contentType: MERGE, body: '{"status":{"replicas":7}}' }],
      kubectl: "kubectl patch deployment owners --subresource=status --type=merge -p '{\"status\":{\"replicas\":7}}' --field-manager=alice",
      hint: 'Send the patch to the /status subresource; the main resource ignores status changes.',
      watch: DEPLOY,
      async check(api, last) {
        if (!last || last.status !== 200) return notYet('Send the status patch.');
        const d = await api.get(PATH);
        const replicas = statusOf(d).replicas;
        const owners = ownerNames(d, ['f:status', 'f:replicas']);
        if (replicas !== specReplicas(d)) return notYet(`status.replicas is ${replicas}: the controller has not corrected it yet.`);
        return owners.includes('kube-controller-manager') && !owners.includes('alice') ? done(`status.replicas is back to ${replicas}, owned by kube-controller-manager again.`) : notYet(`status.replicas is owned by ${owners.join(', ') || 'nobody'}.`);
      },
    },
    {
      title: 'The kubelet owns a pod’s status',
      text: 'List the Deployment’s pods. Each has three writers: `kube-controller-manager` created it (the ReplicaSet controller), `kube-scheduler` bound it to a node, and `kubelet` — the node’s agent — owns its `status`: phase, conditions, IPs, container states.',
      requests: [{ method: 'GET', path: `${PODS}?labelSelector=app%3D${NAME}` }],
      kubectl: `kubectl get pods -l app=${NAME} --show-managed-fields -o yaml`,
      hint: 'Send the list; open one of the pods from the Pod list to see the managers line by line.',
      watch: PODS,
      async check(api, last) {
        if (!last || last.status !== 200) return notYet('Send the list request.');
        const pods = ((await api.get<{ items: KubeObject[] }>(`${PODS}?labelSelector=app%3D${NAME}`))?.items ?? []);
        const pod = pods.find((p) => ownerNames(p, ['f:status']).includes('kubelet'));
        return pod ? done(`${pod.metadata?.name}: status is owned by kubelet, the pod itself by ${ownerNames(pod, ['f:metadata', 'f:ownerReferences']).join(', ')}.`) : notYet('No pod has a kubelet-owned status yet.');
      },
    },
  ],
};

function statusOwner(d: KubeObject) {
  return (d.metadata?.managedFields ?? []).find((e) => e.subresource === 'status' && e.fieldsV1 && Object.hasOwn(e.fieldsV1, 'f:status'));
}
