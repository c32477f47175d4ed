import { apply, DEPLOY, done, notYet, ownerNames, remove } from './checks';
import type { KubeObject, Lesson } from './types';

const PATH = `${DEPLOY}/shop`;

function deployment(containers: Array<{ name: string; image: string }>): string {
  const list = containers.map((c) => `      - name: ${c.name}\n        image: ${c.image}`).join('\n');
  return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: shop\nspec:\n  selector:\n    matchLabels:\n      app: shop\n  template:\n    metadata:\n      labels:\n        app: shop\n    spec:\n      containers:\n${list}\n`;
}

const containerNames = (obj: KubeObject | undefined) => {
  const spec = (obj?.spec as { template?: { spec?: { containers?: Array<{ name: string }> } } } | undefined)?.template?.spec;
  return (spec?.containers ?? []).map((c) => c.name);
};

/** The fieldsV1 path of one container in the list, keyed by name. */
const container = (name: string) => ['f:spec', 'f:template', 'f:spec', 'f:containers', `k:{"name":"${name}"}`];

export const listTypesLesson: Lesson = {
  id: 'list-types',
  title: 'Lists: map keys, sets and atomic lists',
  summary: 'Containers are a list keyed by name: two appliers can each own their own container.',
  object: PATH,
  setup: [remove(PATH), apply(PATH, 'alice', deployment([{ name: 'web', image: 'nginx:1.25' }]))],
  steps: [
    {
      title: 'A second container from another applier',
      text: 'alice applied the Deployment with one container, `web`. A sidecar team (`bob`) applies only their own container, `log`.\n\n`containers` is a map-list keyed by `name`: bob\'s item merges in beside alice\'s, and each owns their own item, written `k:{"name":"log"}` in managedFields.',
      requests: [apply(PATH, 'bob', deployment([{ name: 'log', image: 'fluent-bit:2' }]))],
      kubectl: 'kubectl apply --server-side --field-manager=bob -f sidecar.yaml',
      hint: 'bob\'s body has only the log container (and the selector and labels the Deployment needs).',
      watch: DEPLOY,
      async check(api) {
        const obj = await api.get(PATH);
        const names = containerNames(obj);
        const ok = names.includes('web') && names.includes('log') && ownerNames(obj, container('log')).includes('bob') && ownerNames(obj, container('web')).includes('alice');
        return ok ? done('Two containers, each owned by its own applier.') : notYet(`Containers: ${names.join(', ') || 'none'}.`);
      },
    },
    {
      title: 'Removing your item leaves the other',
      text: 'bob applies the Deployment again without his container. He was the only owner of the `log` item, so it goes; alice\'s `web` item is hers and stays.',
      requests: [apply(PATH, 'bob', `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: shop\n`)],
      kubectl: 'kubectl apply --server-side --field-manager=bob -f empty.yaml',
      hint: 'bob\'s body names only the object.',
      watch: DEPLOY,
      async check(api) {
        const names = containerNames(await api.get(PATH));
        return names.join() === 'web' ? done('Only alice\'s web container is left.') : notYet(`Containers: ${names.join(', ') || 'none'}.`);
      },
    },
  ],
};
