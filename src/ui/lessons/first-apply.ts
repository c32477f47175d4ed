import { apply, CM, configMapYaml, done, notYet, ownersOf, remove, dataOf } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/colours`;

export const firstApplyLesson: Lesson = {
  id: 'first-apply',
  title: 'Your first apply',
  summary: 'Server-Side Apply: send the fields you care about; the server merges them and records you as their owner.',
  object: PATH,
  setup: [remove(PATH)],
  steps: [
    {
      title: 'Apply a configuration as alice',
      text: 'A server-side apply is a PATCH with `Content-Type: application/apply-patch+yaml`. The body is your whole intent for the fields you manage; `fieldManager` names you.\n\nApply creates the object if it does not exist.',
      requests: [apply(PATH, 'alice', configMapYaml('colours', { sky: 'blue' }))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f colours.yaml',
      hint: 'Send the request as it is.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        if (!obj) return notYet('The ConfigMap "colours" does not exist yet.');
        const entry = ownersOf(obj, ['f:data', 'f:sky']).find((e) => e.manager === 'alice');
        return entry?.operation === 'Apply' ? done('alice owns data.sky with operation Apply.') : notYet('alice does not own data.sky through an Apply yet.');
      },
    },
    {
      title: 'Apply again with one more field',
      text: 'Add `grass: "green"` to your configuration and apply again. Applying is idempotent: send the same configuration twice and nothing changes; add a field and you own it too.',
      requests: [apply(PATH, 'alice', configMapYaml('colours', { sky: 'blue', grass: 'green' }))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f colours.yaml',
      hint: 'The body must list both sky and grass under data.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        const grass = ownersOf(obj, ['f:data', 'f:grass']).some((e) => e.manager === 'alice');
        return dataOf(obj).grass === 'green' && grass ? done('alice owns data.sky and data.grass.') : notYet('data.grass should be "green" and owned by alice.');
      },
    },
  ],
};
