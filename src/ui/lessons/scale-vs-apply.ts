import { apply, DEPLOY, done, MERGE, notYet, ownerNames, ownersOf, remove } from './checks';
import { deploymentPath, deploymentYaml, specReplicas } from './cluster-checks';
import { dropReplicasStep, reapplyConflictStep } from './replicas-steps';
import type { Lesson } from './types';

const NAME = 'scaled';
const PATH = deploymentPath(NAME);

export const scaleVsApplyLesson: Lesson = {
  id: 'scale-vs-apply',
  title: 'Scale vs apply',
  summary: '`kubectl scale` takes spec.replicas from whoever applied it; the next apply conflicts — unless the configuration leaves replicas out.',
  object: PATH,
  cluster: true,
  setup: [remove(PATH)],
  steps: [
    {
      title: 'Apply with replicas: 2',
      text: 'alice applies a Deployment with `replicas: 2`. She owns `spec.replicas` (operation Apply).',
      requests: [apply(PATH, 'alice', deploymentYaml(NAME, 'nginx:1.21', 2))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f scaled.yaml',
      hint: 'Send the apply.',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        return ownersOf(d, ['f:spec', 'f:replicas']).some((e) => e.manager === 'alice' && e.operation === 'Apply') ? done('alice owns spec.replicas.') : notYet('alice does not own spec.replicas yet.');
      },
    },
    {
      title: 'Scale to 4',
      text: '`kubectl scale` writes the `scale` subresource: an Update, which never conflicts. spec.replicas becomes 4 and moves to `kubectl-scale` (subresource `scale`); alice no longer owns it. The ReplicaSet controller adds two pods.',
      requests: [{ method: 'PATCH', path: `${PATH}/scale?fieldManager=kubectl-scale`, contentType: MERGE, body: '{"spec":{"replicas":4}}' }],
      kubectl: 'kubectl scale deployment/scaled --replicas=4',
      hint: 'Send the patch to the /scale subresource.',
      watch: DEPLOY,
      async check(api) {
        const d = await api.get(PATH);
        const owners = ownerNames(d, ['f:spec', 'f:replicas']);
        return specReplicas(d) === 4 && owners.includes('kubectl-scale') && !owners.includes('alice') ? done('spec.replicas is 4, owned by kubectl-scale alone.') : notYet(`spec.replicas is ${specReplicas(d)}, owned by ${owners.join(', ') || 'nobody'}.`);
      },
    },
    reapplyConflictStep(NAME, 2, 'kubectl-scale', 'alice applies her unchanged file (`replicas: 2`). Her intent and kubectl-scale’s value differ on a field she no longer owns: 409 Conflict, naming `kubectl-scale`. Without the conflict, every apply of an old file would undo a scale-up.'),
    dropReplicasStep(NAME, 4, {
      title: 'The fix: leave replicas out',
      text: 'Whoever scales the Deployment (a person, an HPA) should own `spec.replicas`, so alice’s configuration leaves it out. Apply the file without `replicas`: no conflict, replicas stays 4, and alice owns everything else.',
      done: 'Applied: replicas stays 4 (kubectl-scale’s); alice owns the rest.',
    }),
  ],
};
