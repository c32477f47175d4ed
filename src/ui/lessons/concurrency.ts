import { CM, done, notYet, remove, statusReason, dataOf } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/counter`;
const body = (value: string, resourceVersion: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'counter', resourceVersion }, data: { value } }, null, 2);

export const concurrencyLesson: Lesson = {
  id: 'concurrency',
  title: 'Dry runs and optimistic concurrency',
  summary: 'dryRun=All checks a write without making it; resourceVersion makes a PUT fail if someone wrote first.',
  object: PATH,
  setup: [remove(PATH), { method: 'POST', path: CM, contentType: 'application/json', body: JSON.stringify({ metadata: { name: 'counter' }, data: { value: '1' } }) }],
  steps: [
    {
      title: 'A dry run changes nothing',
      text: 'With `?dryRun=All` the server runs the whole write — defaulting, validation, admission, ownership — and answers with the result, but stores nothing. Send it: the answer says 2, the object still says 1.',
      requests: [{ method: 'PATCH', path: `${PATH}?dryRun=All`, contentType: 'application/merge-patch+json', body: '{"data":{"value":"2"}}' }],
      kubectl: "kubectl patch configmap counter --type=merge -p '{\"data\":{\"value\":\"2\"}}' --dry-run=server",
      hint: 'Keep ?dryRun=All in the path.',
      watch: CM,
      async check(api, last) {
        if (!last) return notYet('Send the dry run.');
        const stored = dataOf(await api.get(PATH)).value;
        let answered = '';
        try {
          answered = (JSON.parse(last.body) as { data?: { value?: string } }).data?.value ?? '';
        } catch {
          /* not an object */
        }
        return last.status === 200 && answered === '2' && stored === '1' ? done('The answer showed 2; the stored value is still 1.') : notYet(`The stored value is ${stored}; the answer was ${last.status}.`);
      },
    },
    {
      title: 'A stale resourceVersion is refused',
      text: 'A PUT that carries `metadata.resourceVersion` succeeds only if the object has not changed since that version. This one carries version "1", which is long gone: the server answers 409 Conflict ("the object has been modified"), and the client must read again and retry.',
      requests: [{ method: 'PUT', path: PATH, contentType: 'application/json', body: body('3', '1') }],
      kubectl: 'kubectl replace -f counter.yaml   # with an old metadata.resourceVersion',
      hint: 'Leave resourceVersion "1" in the body: the point is to see the 409.',
      watch: CM,
      async check(api, last) {
        if (!last) return notYet('Send the PUT.');
        const stored = dataOf(await api.get(PATH)).value;
        return last.status === 409 && statusReason(last.body) === 'Conflict' && stored === '1' ? done('409 Conflict: the object has been modified. Nothing changed.') : notYet(`The answer was ${last.status}; the stored value is ${stored}.`);
      },
    },
  ],
};
