// The HPA lesson depends on one thing only: the HPA controller writing spec.replicas through the
// scale subresource as kube-controller-manager. minReplicas above the applied count makes it act
// without any metrics (kube's HPA raises a Deployment below minReplicas before reading usage).
import { apply, DEPLOY, done, notYet, ownerNames, remove } from './checks';
import { deploymentPath, deploymentYaml, specReplicas } from './cluster-checks';
import { dropReplicasStep, reapplyConflictStep } from './replicas-steps';
import type { Lesson } from './types';

const NAME = 'autoscaled';
const PATH = deploymentPath(NAME);
const HPA = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';

const hpaYaml = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: ${NAME}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: ${NAME}
  minReplicas: 3
  maxReplicas: 6
  metrics:
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 50
`;

export const hpaVsApplyLesson: Lesson = {
  id: 'hpa-vs-apply',
  title: 'kubectl apply vs the HPA',
  summary: 'An autoscaler owns spec.replicas once it scales; a configuration that still sets replicas fights it. The fix: drop replicas from your config.',
  object: PATH,
  cluster: true,
  setup: [remove(`${HPA}/${NAME}`), remove(PATH)],
  steps: [
    {
      title: 'Apply a Deployment of one',
      text: 'alice applies a Deployment with `replicas: 1` (and a CPU request, which utilisation is measured against). She owns `spec.replicas`.',
      requests: [apply(PATH, 'alice', deploymentYaml(NAME, 'nginx:1.21', 1))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f autoscaled.yaml',
      hint: 'Send the apply.',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        return specReplicas(d) === 1 && ownerNames(d, ['f:spec', 'f:replicas']).includes('alice') ? done('alice owns spec.replicas: 1.') : notYet('The Deployment with replicas 1, applied by alice, does not exist yet.');
      },
    },
    {
      title: 'Add a HorizontalPodAutoscaler',
      text: 'Create an HPA for it with `minReplicas: 3`. The HPA controller (in kube-controller-manager) finds the Deployment below its minimum and writes `spec.replicas: 3` through the `scale` subresource. That write is an Update: it takes spec.replicas from alice without asking.\n\nOpen the Deployment: spec.replicas now shows `kube-controller-manager`, subresource `scale`.',
      requests: [apply(HPA + `/${NAME}`, 'alice', hpaYaml)],
      kubectl: 'kubectl autoscale deployment autoscaled --min=3 --max=6 --cpu-percent=50',
      hint: 'The HPA acts on its next sync (every 15 s of cluster time): if the clock is paused, step it.',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        const owners = ownerNames(d, ['f:spec', 'f:replicas']);
        return specReplicas(d) === 3 && owners.includes('kube-controller-manager') ? done('The HPA set spec.replicas to 3; kube-controller-manager owns it now.') : notYet(`spec.replicas is ${specReplicas(d)}, owned by ${owners.join(', ') || 'nobody'}: waiting for the HPA.`);
      },
    },
    reapplyConflictStep(NAME, 1, 'kube-controller-manager (the HPA)', 'alice applies her file unchanged, `replicas: 1`. The API refuses: 409 Conflict with `kube-controller-manager`. Forcing it would set 1 — and the HPA would put 3 back on its next sync: a tug of war, and pods created and killed on every deploy.'),
    dropReplicasStep(NAME, 3, {
      title: 'The fix: drop replicas from your config',
      text: 'With an HPA, replicas is the autoscaler’s. Remove `replicas` from the configuration and apply: no conflict, the HPA keeps its 3, and alice owns the rest of the Deployment.',
      done: 'Applied: spec.replicas stays 3, the HPA’s.',
      holder: 'kube-controller-manager',
    }),
  ],
};
