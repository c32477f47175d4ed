import { apply, CM, configMapYaml, done, notYet, ownerNames, remove, dataOf } from './checks';
import type { Lesson } from './types';

const PATH = `${CM}/limits`;

export const waysOutLesson: Lesson = {
  id: 'ways-out',
  title: 'Three ways out of a conflict',
  summary: 'Share a field by agreeing on its value, stop managing it, or force and take it.',
  object: PATH,
  setup: [remove(PATH), apply(PATH, 'alice', configMapYaml('limits', { cpu: '1', memory: '1Gi' }))],
  steps: [
    {
      title: 'Share: agree on the value',
      text: 'alice owns `cpu: "1"` and `memory`. bob\'s apply of `cpu: "2"` would conflict. Instead bob applies the live value, `cpu: "1"`. Agreeing is never a conflict, and now both own the field: neither can change it later without the other noticing.',
      requests: [apply(PATH, 'bob', configMapYaml('limits', { cpu: '1' }))],
      kubectl: 'kubectl apply --server-side --field-manager=bob -f limits.yaml',
      hint: 'cpu must be exactly "1", the live value.',
      watch: CM,
      async check(api) {
        const cpu = ownerNames(await api.get(PATH), ['f:data', 'f:cpu']);
        return cpu.includes('alice') && cpu.includes('bob') ? done('alice and bob co-own data.cpu.') : notYet(`data.cpu is owned by ${cpu.join(', ') || 'nobody'}.`);
      },
    },
    {
      title: 'Stop managing: leave the field out',
      text: 'alice hands `cpu` over to bob: she removes it from her configuration and applies. A field you leave out of your apply is no longer yours; since bob still owns it, it stays, with its value.',
      requests: [apply(PATH, 'alice', configMapYaml('limits', { memory: '1Gi' }))],
      kubectl: 'kubectl apply --server-side --field-manager=alice -f limits.yaml',
      hint: 'alice\'s body lists only memory.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        const cpu = ownerNames(obj, ['f:data', 'f:cpu']);
        return cpu.join() === 'bob' && dataOf(obj).cpu === '1' ? done('alice manages memory only; cpu stays "1", owned by bob alone.') : notYet(`data.cpu is owned by ${cpu.join(', ') || 'nobody'}.`);
      },
    },
    {
      title: 'Force: take ownership',
      text: 'Later alice needs `cpu: "4"` now, whatever bob thinks. With `force=true` her apply wins the conflict: the value changes and the field moves to her alone. bob is no longer its owner — his next apply of "1" will conflict and tell him.',
      requests: [apply(PATH, 'alice', configMapYaml('limits', { cpu: '4', memory: '1Gi' }), true)],
      kubectl: 'kubectl apply --server-side --force-conflicts --field-manager=alice -f limits.yaml',
      hint: 'The path must end with &force=true.',
      watch: CM,
      async check(api) {
        const obj = await api.get(PATH);
        const owners = ownerNames(obj, ['f:data', 'f:cpu']);
        return dataOf(obj).cpu === '4' && owners.join() === 'alice' ? done('alice forced data.cpu to "4" and is its only owner.') : notYet(`data.cpu is "${dataOf(obj).cpu ?? ''}", owned by ${owners.join(', ') || 'nobody'}.`);
      },
    },
  ],
};
