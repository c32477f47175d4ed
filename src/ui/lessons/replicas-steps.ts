// The two steps the "scale vs apply" and "kubectl apply vs the HPA" lessons share: alice applies
// her old file (replicas included) after someone else took spec.replicas, which must answer 409;
// then she applies it without replicas, which must leave the other manager's count in place.
import { apply, DEPLOY, done, notYet, ownerNames, statusReason } from './checks';
import { deploymentPath, deploymentYaml, specReplicas } from './cluster-checks';
import type { LessonStep } from './types';

/** Step: alice re-applies `file` with `replicas`; the answer must be a 409 Conflict naming `holder`. */
export function reapplyConflictStep(name: string, replicas: number, holder: string, text: string): LessonStep {
  return {
    title: 'Apply the old file again',
    text,
    requests: [apply(deploymentPath(name), 'alice', deploymentYaml(name, 'nginx:1.21', replicas))],
    kubectl: `kubectl apply --server-side --field-manager=alice -f ${name}.yaml`,
    hint: 'Send it without force: the point is the 409.',
    watch: DEPLOY,
    async check(_api, last) {
      if (!last) return notYet('Send the apply.');
      return last.status === 409 && statusReason(last.body) === 'Conflict' ? done(`409 Conflict: spec.replicas is managed by ${holder}.`) : notYet(`The answer was ${last.status}, not a 409 Conflict.`);
    },
  };
}

/**
 * Step: alice applies her file without `replicas`; spec.replicas must stay `replicas`, alice must
 * not own it, and `holder` (when given) must still own it.
 */
export function dropReplicasStep(name: string, replicas: number, fix: { title: string; text: string; done: string; holder?: string }): LessonStep {
  const path = deploymentPath(name);
  return {
    title: fix.title,
    text: fix.text,
    requests: [apply(path, 'alice', deploymentYaml(name, 'nginx:1.21'))],
    kubectl: `kubectl apply --server-side --field-manager=alice -f ${name}.yaml   # replicas removed from the file`,
    hint: 'Delete the replicas line from the body before sending.',
    watch: DEPLOY,
    async check(api, last) {
      if (!last || last.status !== 200) return notYet(last ? `The answer was ${last.status}: is replicas still in the body?` : 'Send the apply without replicas.');
      const d = await api.get(path);
      const owners = ownerNames(d, ['f:spec', 'f:replicas']);
      const held = fix.holder === undefined || owners.includes(fix.holder);
      return specReplicas(d) === replicas && held && !owners.includes('alice') ? done(fix.done) : notYet(`spec.replicas is ${specReplicas(d)}, owned by ${owners.join(', ')}.`);
    },
  };
}
