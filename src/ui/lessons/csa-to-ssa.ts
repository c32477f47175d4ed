// CSA → SSA migration: what `kubectl apply --server-side` does to an object that `kubectl apply`
// (client-side) made. kube-apiserver v1.23 gives the field manager named exactly `kubectl` a way
// in: conflicts on fields the last-applied annotation still explains are taken without force, and
// the client-side applier (kubectl-client-side-apply) is forgotten. Any other name conflicts.
import { apply, CM, configMapYaml, dataOf, done, notYet, ownerNames, ownersOf, remove, statusReason } from './checks';
import type { KubeObject, Lesson } from './types';

const NAME = 'legacy';
const PATH = `${CM}/${NAME}`;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const CSA_MANAGER = 'kubectl-client-side-apply';

/** What `kubectl apply` (client-side) sends to create the object: the config plus its annotation. */
const clientSideCreate = (() => {
  const config = { apiVersion: 'v1', data: { color: 'blue', size: 'small' }, kind: 'ConfigMap', metadata: { annotations: {}, name: NAME, namespace: 'default' } };
  const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, annotations: { [LAST_APPLIED]: `${JSON.stringify(config)}\n` } }, data: config.data };
  return JSON.stringify(body, null, 2);
})();

const annotation = (obj: KubeObject | undefined) => obj?.metadata?.annotations?.[LAST_APPLIED] ?? '';
const managers = (obj: KubeObject | undefined) => (obj?.metadata?.managedFields ?? []).map((e) => e.manager ?? '');

export const csaToSsaLesson: Lesson = {
  id: 'csa-to-ssa',
  title: 'CSA → SSA migration with kubectl apply --server-side',
  summary: 'An object made by client-side kubectl apply moves to server-side apply without a conflict, but only for the manager named kubectl.',
  object: PATH,
  setup: [remove(PATH)],
  steps: [
    {
      title: 'A client-side apply',
      text: 'Classic `kubectl apply` works in the client: it computes a patch from the `kubectl.kubernetes.io/last-applied-configuration` annotation and sends an ordinary write, as field manager `kubectl-client-side-apply`. The server records that as an `Update`, not an `Apply`.\n\nSend the create that `kubectl apply` sends for a new object: the config, with itself in the annotation.',
      requests: [{ method: 'POST', path: `${CM}?fieldManager=${CSA_MANAGER}`, contentType: 'application/json', body: clientSideCreate }],
      kubectl: 'kubectl apply -f legacy.yaml',
      hint: 'Send the POST as it is: the annotation and fieldManager=kubectl-client-side-apply are what client-side kubectl apply sends.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        if (!obj) return notYet('The ConfigMap legacy does not exist yet.');
        const owners = ownersOf(obj, ['f:data', 'f:color']);
        return annotation(obj) && owners.length === 1 && owners[0]!.manager === CSA_MANAGER && owners[0]!.operation === 'Update'
          ? done('data.color belongs to kubectl-client-side-apply, with operation Update, and the annotation holds the applied config.')
          : notYet('data.color should be owned by kubectl-client-side-apply (Update), with the last-applied annotation set.');
      },
    },
    {
      title: 'Another server-side applier conflicts',
      text: 'Now a tool applies a changed config server-side under its own name, `my-tool`, setting `color: green`. The fields belong to kubectl-client-side-apply, and the values differ: a 409 Conflict, as for any two managers.',
      requests: [apply(PATH, 'my-tool', configMapYaml(NAME, { color: 'green', size: 'small' }))],
      kubectl: 'kubectl apply --server-side --field-manager=my-tool -f legacy.yaml',
      hint: 'Send the apply as my-tool without force=true: the point is the 409.',
      watch: CM,
      async check(api, last) {
        if (!last) return notYet('Send the apply as my-tool.');
        const color = dataOf(await api.get(PATH)).color;
        return last.status === 409 && statusReason(last.body) === 'Conflict' && color === 'blue'
          ? done('409 Conflict with kubectl-client-side-apply; color is still blue.')
          : notYet(`Expected a 409 Conflict and color still blue; got ${last.status}, color ${color ?? '(none)'}.`);
      },
    },
    {
      title: 'kubectl apply --server-side takes over',
      text: 'The same change, applied server-side by the manager named exactly `kubectl` (what `kubectl apply --server-side` uses). The server compares the live object with the last-applied annotation: the conflicting fields still hold the annotation\'s values, so they are taken without force, and `kubectl-client-side-apply` is forgotten. The annotation is rewritten to the new config, so a later client-side `kubectl apply` still works.',
      requests: [apply(PATH, 'kubectl', configMapYaml(NAME, { color: 'green', size: 'small' }))],
      kubectl: 'kubectl apply --server-side -f legacy.yaml',
      hint: 'Keep fieldManager=kubectl and no force: the migration only exists for that name.',
      watch: CM,
      async check(api, last) {
        const obj = await api.get(PATH);
        const color = dataOf(obj).color;
        const owners = ownerNames(obj, ['f:data', 'f:color']);
        if (last && last.status !== 200) return notYet(`The apply answered ${last.status}; it should succeed without force.`);
        return color === 'green' && owners.join() === 'kubectl' && !managers(obj).includes(CSA_MANAGER) && annotation(obj).includes('"green"')
          ? done('No conflict: kubectl owns the fields (Apply), kubectl-client-side-apply is gone, and the annotation follows the new config.')
          : notYet(`color is ${color ?? '(none)'}, owned by ${owners.join(', ') || 'nobody'}; managers: ${managers(obj).join(', ')}.`);
      },
    },
  ],
};
