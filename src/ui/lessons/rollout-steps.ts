import { apply, DEPLOY, done, notYet, remove } from './checks';
import { clock, CLOCK, deploymentPath, deploymentYaml, imageOf, NO_KUBECTL_CLOCK, observed, statusOf } from './cluster-checks';
import type { Lesson, LessonApi } from './types';

const NAME = 'rollout';
const PATH = deploymentPath(NAME);

const clockPaused = async (api: LessonApi) => (await api.get<{ paused?: boolean }>(CLOCK))?.paused === true;

export const rolloutLesson: Lesson = {
  id: 'rollout-step-by-step',
  title: 'A rollout step by step',
  summary: 'Pause the cluster clock and walk a rolling update one kubelet delay at a time: maxSurge, maxUnavailable and the ready counts.',
  object: PATH,
  cluster: true,
  // The clock runs at the start, so pausing it is the first thing the learner does.
  setup: [remove(PATH), clock('resume')],
  steps: [
    {
      title: 'Pause the cluster clock',
      text: 'The cluster’s time drives every delay: a kubelet takes a moment (1 s by default, see Settings) to start a pod’s containers. Pause the clock — the ⏸ button in the header does the same — and time stands still for the whole cluster.\n\nControllers still react to changes at once; only what waits on time waits.',
      requests: [clock('pause')],
      kubectl: NO_KUBECTL_CLOCK,
      hint: 'Send the request, or press pause in the header.',
      watch: DEPLOY,
      async check(api) {
        return (await clockPaused(api)) ? done('The clock is paused.') : notYet('The clock is running.');
      },
    },
    {
      title: 'Create a Deployment of three',
      text: 'Apply a Deployment with 3 replicas. The deployment controller creates a ReplicaSet, the ReplicaSet controller three pods, the scheduler binds each to a node, and each node’s kubelet admits its pod: `ContainerCreating`. There they stay, because the kubelet’s delay has not passed.\n\nLook at the Pod list: READY `0/1`, STATUS `ContainerCreating`, a NODE each.',
      requests: [apply(PATH, 'alice', deploymentYaml(NAME, 'nginx:1.21', 3))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f rollout.yaml',
      hint: 'Send the apply and open the Pod list.',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        const s = statusOf(d);
        if (!d || !observed(d) || s.replicas !== 3) return notYet('Waiting for the controllers to create three pods.');
        return (s.readyReplicas ?? 0) === 0 ? done('3 pods, none ready: the clock is paused.') : notYet(`${s.readyReplicas} pods are ready already: pause the clock and reset this step.`);
      },
    },
    {
      title: 'Step one second',
      text: 'Step the clock forward 1 s (`+1s` in the header). The kubelets’ delays end, the pods run and turn Ready, and the controllers count them: the Deployment’s `readyReplicas` and `availableReplicas` become 3.',
      requests: [clock('step', 1000)],
      kubectl: NO_KUBECTL_CLOCK,
      hint: 'If your kubelet delay is longer than 1 s, step again until the pods are ready.',
      watch: DEPLOY,
      async check(api) {
        const s = statusOf(await api.get(PATH));
        return s.availableReplicas === 3 ? done('3 of 3 available.') : notYet(`${s.availableReplicas ?? 0} of 3 available: step again.`);
      },
    },
    {
      title: 'Change the image',
      text: 'Apply the same configuration with `nginx:1.22`. A new pod template means a new ReplicaSet. With 3 replicas the defaults `maxSurge: 25%` (rounded up: 1) and `maxUnavailable: 25%` (rounded down: 0) allow one extra pod and no missing one: the new ReplicaSet gets 1 pod, the old one keeps its 3.\n\nThe new pod waits at ContainerCreating: the rollout waits with it.',
      requests: [apply(PATH, 'alice', deploymentYaml(NAME, 'nginx:1.22', 3))],
      kubectl: 'kubectl set image deployment/rollout web=nginx:1.22   # or edit rollout.yaml and apply it again',
      hint: 'The image must be nginx:1.22; keep the clock paused.',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        const s = statusOf(d);
        if (imageOf(d) !== 'nginx:1.22' || !observed(d)) return notYet('The Deployment does not run nginx:1.22 yet.');
        return (s.updatedReplicas ?? 0) >= 1 && (s.updatedReplicas ?? 0) < 3 ? done(`${s.updatedReplicas} updated pod, ${s.replicas} pods in all, ${s.availableReplicas} available.`) : notYet(`updatedReplicas is ${s.updatedReplicas ?? 0}.`);
      },
    },
    {
      title: 'Step through the rollout',
      text: 'Step 1 s at a time and watch the Deployments list: each step one new pod turns Ready, the old ReplicaSet gives up one pod and the new one gets the next. UP-TO-DATE goes 1, 2, 3; READY never drops below 3/3 (maxUnavailable 0) and there are never more than 4 pods (maxSurge 1).\n\nThe request below steps 10 s at once: the clock stops at every timer on the way, so the result is the same.',
      requests: [clock('step', 10_000)],
      kubectl: 'kubectl rollout status deployment/rollout   # waits for what the steps show',
      hint: 'Step until UP-TO-DATE is 3 and AVAILABLE is 3.',
      watch: DEPLOY,
      async check(api) {
        const s = statusOf(await api.get(PATH));
        return s.updatedReplicas === 3 && s.availableReplicas === 3 && s.replicas === 3 ? done('Rolled out: 3 updated, 3 available, the old ReplicaSet at 0.') : notYet(`updated ${s.updatedReplicas ?? 0}, available ${s.availableReplicas ?? 0}, total ${s.replicas ?? 0}: step again.`);
      },
    },
    {
      title: 'Resume the clock',
      text: 'Resume time (▶ in the header). The cluster goes on at the speed set in the header or in Settings.',
      requests: [clock('resume')],
      kubectl: NO_KUBECTL_CLOCK,
      hint: 'Send the request, or press ▶ in the header.',
      watch: DEPLOY,
      async check(api) {
        return (await clockPaused(api)) ? notYet('The clock is still paused.') : done('Time runs again.');
      },
    },
  ],
};
