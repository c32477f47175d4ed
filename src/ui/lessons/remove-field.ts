import { apply, CM, configMapYaml, done, notYet, ownerNames, remove, dataOf } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/features`;

export const removeFieldLesson: Lesson = {
  id: 'remove-field',
  title: 'Removing a field from your configuration',
  summary: 'A field you stop applying is deleted — unless someone else still owns it.',
  object: PATH,
  setup: [remove(PATH), apply(PATH, 'alice', configMapYaml('features', { search: 'on', beta: 'on', dark: 'on' }))],
  steps: [
    {
      title: 'Leave a field out',
      text: 'alice applied `search`, `beta` and `dark`. She drops `beta` from her configuration and applies again. She was its only owner, so the server deletes it.',
      requests: [apply(PATH, 'alice', configMapYaml('features', { search: 'on', dark: 'on' }))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f features.yaml',
      hint: 'The body lists search and dark, not beta.',
      watch: CM,
      async check(api) {
        const data = dataOf(await api.get(PATH));
        return !('beta' in data) && data.search === 'on' ? done('beta is gone: its only owner stopped applying it.') : notYet('data.beta is still there.');
      },
    },
    {
      title: 'A field someone else owns stays',
      text: 'bob applies `dark: "on"` too, so he co-owns it. Then alice leaves `dark` out. This time the field stays: bob still owns it; only alice\'s ownership ends.\n\nThe request below is bob\'s; then send alice\'s apply without dark (press "Send" on the second request).',
      requests: [apply(PATH, 'bob', configMapYaml('features', { dark: 'on' })), apply(PATH, 'alice', configMapYaml('features', { search: 'on' }))],
      kubectl: 'kubectl apply --server-side --field-manager=bob -f dark.yaml\nkubectl apply --server-side --field-manager=alice -f features.yaml',
      hint: 'Send both requests, bob\'s first.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        const owners = ownerNames(obj, ['f:data', 'f:dark']);
        return dataOf(obj).dark === 'on' && owners.join() === 'bob' ? done('dark stays, owned by bob alone.') : notYet(`data.dark is owned by ${owners.join(', ') || 'nobody'}.`);
      },
    },
  ],
};
