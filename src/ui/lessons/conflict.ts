import { apply, CM, configMapYaml, done, notYet, ownerNames, remove, statusReason, dataOf } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/settings`;
const aliceConfig = configMapYaml('settings', { replicas: '2' });

export const conflictLesson: Lesson = {
  id: 'conflict',
  title: 'A second applier and a conflict',
  summary: 'When two appliers want different values for one field, the second is refused with a 409 that names the owner.',
  object: PATH,
  setup: [remove(PATH), apply(PATH, 'alice', aliceConfig)],
  steps: [
    {
      title: 'bob applies a different value',
      text: 'alice already applied `replicas: "2"`. Now bob applies `replicas: "5"` without force.\n\nThe server refuses: 409 Conflict, with a cause naming the field and its manager. Nothing is changed.',
      requests: [apply(PATH, 'bob', configMapYaml('settings', { replicas: '5' }))],
      kubectl: 'kubectl apply --server-side --field-manager=bob -f settings.yaml',
      hint: 'Send bob\'s apply as it is, without force=true: the point is to see the 409.',
      watch: CM,
      async check(api, last) {
        const obj = await api.get(PATH);
        if (!last) return notYet('Send bob\'s apply.');
        if (last.status !== 409 || statusReason(last.body) !== 'Conflict') return notYet(`The answer was ${last.status}, not a 409 Conflict. Use "Reset this step" and send it without force.`);
        return dataOf(obj).replicas === '2' ? done('409 Conflict: data.replicas is managed by alice, and it still says "2".') : notYet('data.replicas changed; reset the step.');
      },
    },
    {
      title: 'Applying the same value is not a conflict',
      text: 'bob now applies `replicas: "2"`, the value alice set. Agreeing is not a conflict: both managers own the field.',
      requests: [apply(PATH, 'bob', configMapYaml('settings', { replicas: '2' }))],
      kubectl: 'kubectl apply --server-side --field-manager=bob -f settings.yaml',
      hint: 'The value must be exactly "2".',
      watch: CM,
      async check(api) {
        const owners = ownerNames(await api.get(PATH), ['f:data', 'f:replicas']);
        return owners.includes('alice') && owners.includes('bob') ? done('alice and bob share data.replicas.') : notYet(`data.replicas is owned by ${owners.join(', ') || 'nobody'}.`);
      },
    },
  ],
};
