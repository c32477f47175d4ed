import { apply, CM, configMapYaml, done, MERGE, notYet, remove } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/legacy`;

export const resetManagedFieldsLesson: Lesson = {
  id: 'reset-managed-fields',
  title: 'Resetting managedFields',
  summary: 'Clearing the ownership record: a patch that sets managedFields to a list with one empty entry.',
  object: PATH,
  setup: [remove(PATH), apply(PATH, 'alice', configMapYaml('legacy', { a: '1' })), apply(PATH, 'bob', configMapYaml('legacy', { b: '2' }))],
  steps: [
    {
      title: 'Clear the record',
      text: 'alice and bob own fields of `legacy`. A merge patch that sets `metadata.managedFields` to `[{}]` (one empty entry) clears the record; an empty list `[]` would mean "leave it as it is".\n\nThe object keeps its data; nobody owns anything.',
      requests: [{ method: 'PATCH', path: PATH, contentType: MERGE, body: '{"metadata":{"managedFields":[{}]}}' }],
      kubectl: "kubectl patch configmap legacy --type=merge -p '{\"metadata\":{\"managedFields\":[{}]}}'",
      hint: 'The list holds one empty object: [{}].',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        const entries = obj?.metadata?.managedFields ?? [];
        return obj && entries.length === 0 ? done('managedFields is empty; the data is still there.') : notYet(`${entries.length} managedFields entries are left.`);
      },
    },
    {
      title: 'The next apply starts a new record',
      text: 'alice applies again. Since nobody managed the object, the server first records every existing field under a manager called `before-first-apply`, then alice\'s apply.',
      requests: [apply(PATH, 'alice', configMapYaml('legacy', { a: '1' }))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f legacy.yaml',
      hint: 'Send alice\'s apply.',
      watch: CM,
      async check(api) {
        const entries = (await api.get(PATH))?.metadata?.managedFields ?? [];
        return entries.some((e) => e.manager === 'alice') ? done(`Managers now: ${entries.map((e) => e.manager).join(', ')}.`) : notYet('alice has no entry yet.');
      },
    },
  ],
};
