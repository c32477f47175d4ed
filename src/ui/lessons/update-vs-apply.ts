import { apply, CM, configMapYaml, done, MERGE, notYet, ownersOf, remove } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/ports`;

export const updateVsApplyLesson: Lesson = {
  id: 'update-vs-apply',
  title: 'Update vs Apply',
  summary: 'A PUT or an ordinary patch never conflicts: it silently takes the fields it changes.',
  object: PATH,
  setup: [remove(PATH), apply(PATH, 'alice', configMapYaml('ports', { http: '80', https: '443' }))],
  steps: [
    {
      title: 'An imperative change moves ownership',
      text: 'alice applied `http` and `https`. An operator script changes `http` with a merge patch (an Update). Updates are never refused for ownership: the field moves to the script, recorded with operation `Update`.',
      requests: [{ method: 'PATCH', path: `${PATH}?fieldManager=ops-script`, contentType: MERGE, body: '{"data":{"http":"8080"}}' }],
      kubectl: "kubectl patch configmap ports --type=merge -p '{\"data\":{\"http\":\"8080\"}}' --field-manager=ops-script",
      hint: 'Send the merge patch.',
      watch: CM,
      async check(api) {
        const entries = ownersOf(await api.get(PATH), ['f:data', 'f:http']);
        return entries.length === 1 && entries[0]!.manager === 'ops-script' && entries[0]!.operation === 'Update' ? done('data.http now belongs to ops-script (Update); alice lost it without being asked.') : notYet('data.http should be owned by ops-script alone.');
      },
    },
    {
      title: 'The applier finds out',
      text: 'alice re-applies her configuration with `http: "80"`. Now she conflicts with ops-script: the 409 is how Server-Side Apply tells her someone changed her field. (Force it here to restore her value.)',
      requests: [apply(PATH, 'alice', configMapYaml('ports', { http: '80', https: '443' }), true)],
      kubectl: 'kubectl apply --server-side --force-conflicts --field-manager=alice -f ports.yaml',
      hint: 'Keep force=true to take data.http back.',
      watch: CM,
      async check(api) {
        const entries = ownersOf(await api.get(PATH), ['f:data', 'f:http']);
        return entries.some((e) => e.manager === 'alice' && e.operation === 'Apply') && !entries.some((e) => e.manager === 'ops-script') ? done('alice owns data.http again.') : notYet('alice should own data.http again.');
      },
    },
  ],
};
