import { CM, done, notYet, ownerNames, remove } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/first`;

export const managedFieldsLesson: Lesson = {
  id: 'managed-fields',
  title: 'What managedFields are',
  summary: 'Every write is recorded: the API server notes who set each field, and how.',
  object: PATH,
  setup: [remove(PATH)],
  steps: [
    {
      title: 'Create an object',
      text: 'Send the request below: a plain create (POST) of a ConfigMap, as `kubectl create` sends it.\n\nThe API server stores the object and, in `metadata.managedFields`, records which fields this writer (the field manager `kubectl-create`) set.',
      requests: [{ method: 'POST', path: `${CM}?fieldManager=kubectl-create`, contentType: 'application/json', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'first' }, data: { greeting: 'hello' } }, null, 2) }],
      kubectl: 'kubectl create configmap first --from-literal=greeting=hello',
      hint: 'Press "Send". If the object already exists, use "Reset this step" first.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        if (!obj) return notYet('The ConfigMap "first" does not exist yet.');
        const owners = ownerNames(obj, ['f:data', 'f:greeting']);
        return owners.length ? done(`data.greeting is owned by ${owners.join(', ')}.`) : notYet('data.greeting has no owner yet.');
      },
    },
    {
      title: 'Read the ownership record',
      text: 'Read the object back. Each entry of `metadata.managedFields` names a `manager`, an `operation` (Update for create/PUT/patch, Apply for server-side apply), the `apiVersion` it wrote with, a `time`, and `fieldsV1`: the set of fields it owns, written as `f:<field>` keys.\n\nNow change the value as another writer, `bob`, with a merge patch: ownership of `data.greeting` moves to bob.',
      requests: [{ method: 'PATCH', path: `${PATH}?fieldManager=bob`, contentType: 'application/merge-patch+json', body: '{"data":{"greeting":"hi"}}' }],
      kubectl: "kubectl patch configmap first --type=merge -p '{\"data\":{\"greeting\":\"hi\"}}' --field-manager=bob",
      hint: 'Send the merge patch as it is; the fieldManager query parameter names the writer.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        const owners = ownerNames(obj, ['f:data', 'f:greeting']);
        return owners.includes('bob') ? done('bob changed data.greeting, so bob owns it now (operation Update).') : notYet(`data.greeting is owned by ${owners.join(', ') || 'nobody'}; bob should own it.`);
      },
    },
  ],
};
