import { describe, expect, it } from 'vitest';
import { conflictLines, describeOwner, ownershipView, toStableYaml, type ManagedFieldsEntry, type OwnershipView } from './ownership';
import { colourForManagers, hueSlot } from './manager-colours';

const deploymentFields = {
  'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
  'f:spec': {
    'f:replicas': {},
    'f:selector': {},
    'f:template': {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"web"}': {
            '.': {},
            'f:args': {},
            'f:env': { '.': {}, 'k:{"name":"MODE"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
            'f:image': {},
            'f:name': {},
            'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
          },
        },
      },
    },
  },
};

const managedFields: ManagedFieldsEntry[] = [
  { manager: 'alice', operation: 'Apply', apiVersion: 'apps/v1', time: '2024-05-01T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1: deploymentFields },
  { manager: 'bob', operation: 'Apply', apiVersion: 'apps/v1', time: '2024-05-01T11:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
  {
    manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'apps/v1', time: '2024-05-01T10:00:01Z', fieldsType: 'FieldsV1', subresource: 'status',
    fieldsV1: { 'f:status': { 'f:conditions': { '.': {}, 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } }, 'f:replicas': {} } },
  },
];

const deployment = {
  kind: 'Deployment',
  apiVersion: 'apps/v1',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, managedFields, resourceVersion: '42' },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1.25', args: ['--port', '80'], env: [{ name: 'MODE', value: 'prod' }], ports: [{ containerPort: 80, protocol: 'TCP' }] },
          { name: 'sidecar', image: 'busybox' },
        ],
      },
    },
  },
  status: { replicas: 3, conditions: [{ type: 'Available', status: 'True' }] },
};

/** The line whose trimmed text equals `text` (after the n-th match, for repeated text). */
function lineOf(view: OwnershipView, text: string, nth = 0): number {
  const all = view.yaml.split('\n').map((l, i) => [l.trim(), i + 1] as const).filter(([l]) => l === text);
  if (!all[nth]) throw new Error(`no line "${text}" in\n${view.yaml}`);
  return all[nth][1];
}
const managersOn = (view: OwnershipView, line: number) => view.lines[line - 1]!.owners.map((o) => o.manager);

describe('toStableYaml', () => {
  it('sorts keys like kubectl, keeps lists unindented and hides managedFields unless asked', () => {
    const yaml = toStableYaml({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c', managedFields }, data: { b: '2', a: '1' } });
    expect(yaml).toBe('apiVersion: v1\ndata:\n  a: "1"\n  b: "2"\nkind: ConfigMap\nmetadata:\n  name: c\n');
    const raw = toStableYaml({ metadata: { managedFields: [{ manager: 'm' }] } }, { showManagedFields: true });
    expect(raw).toBe('metadata:\n  managedFields:\n  - manager: m\n');
  });
});

describe('ownershipView on a Deployment', () => {
  const view = ownershipView(deployment);

  it('has one entry per YAML line, numbered from 1', () => {
    expect(view.lines.length).toBe(view.yaml.trimEnd().split('\n').length);
    expect(view.lines[0]).toMatchObject({ line: 1, paths: ['.apiVersion'], owners: [] });
    expect(view.yaml).not.toContain('managedFields');
  });

  it('gives a scalar field to every co-owner, in managedFields order', () => {
    const line = lineOf(view, 'replicas: 3');
    expect(managersOn(view, line)).toEqual(['alice', 'bob']);
    expect(view.lines[line - 1]!.paths).toEqual(['.spec.replicas']);
    const bob = view.lines[line - 1]!.owners[1]!;
    expect(bob).toEqual({ manager: 'bob', operation: 'Apply', apiVersion: 'apps/v1', subresource: '', time: '2024-05-01T11:00:00Z' });
  });

  it('leaves plain parents (no "." marker) and server-set fields unowned', () => {
    expect(managersOn(view, lineOf(view, 'spec:'))).toEqual([]);
    expect(managersOn(view, lineOf(view, 'resourceVersion: "42"'))).toEqual([]);
    expect(managersOn(view, lineOf(view, 'name: web'))).toEqual([]); // metadata.name: nobody lists it
  });

  it('gives a map line to whoever holds "." on it', () => {
    expect(managersOn(view, lineOf(view, 'labels:'))).toEqual(['alice']);
    expect(managersOn(view, lineOf(view, 'app: web'))).toEqual(['alice']);
  });

  it('gives an atomic field (leaf on a map) every line beneath it', () => {
    expect(managersOn(view, lineOf(view, 'selector:'))).toEqual(['alice']);
    expect(managersOn(view, lineOf(view, 'matchLabels:'))).toEqual(['alice']);
    const selectorApp = lineOf(view, 'matchLabels:') + 1;
    expect(view.yaml.split('\n')[selectorApp - 1]!.trim()).toBe('app: web');
    expect(managersOn(view, selectorApp)).toEqual(['alice']);
    expect(view.lines[selectorApp - 1]!.paths).toEqual(['.spec.selector.matchLabels.app']);
  });

  it('matches list-map items by their key fields, including multi-key items', () => {
    const first = lineOf(view, '- args:');
    expect(view.lines[first - 1]!.paths).toEqual(['.spec.template.spec.containers[name="web"]', '.spec.template.spec.containers[name="web"].args']);
    expect(managersOn(view, first)).toEqual(['alice']);
    expect(managersOn(view, lineOf(view, '- --port'))).toEqual(['alice']); // inside atomic args
    expect(managersOn(view, lineOf(view, 'image: nginx:1.25'))).toEqual(['alice']);
    const port = lineOf(view, '- containerPort: 80');
    expect(view.lines[port - 1]!.paths[0]).toBe('.spec.template.spec.containers[name="web"].ports[containerPort=80,protocol="TCP"]');
    expect(managersOn(view, port)).toEqual(['alice']);
    expect(managersOn(view, lineOf(view, 'protocol: TCP'))).toEqual(['alice']);
    const env = lineOf(view, '- name: MODE');
    expect(view.lines[env - 1]!.paths).toContain('.spec.template.spec.containers[name="web"].env[name="MODE"].name');
    expect(managersOn(view, lineOf(view, 'value: prod'))).toEqual(['alice']);
  });

  it('leaves list items nobody manages unowned and labels them by index', () => {
    const item = lineOf(view, '- image: busybox');
    expect(managersOn(view, item)).toEqual([]);
    expect(view.lines[item - 1]!.paths).toEqual(['.spec.template.spec.containers[1]', '.spec.template.spec.containers[1].image']);
    expect(managersOn(view, lineOf(view, 'name: sidecar'))).toEqual([]);
  });

  it('shows subresource owners with their subresource', () => {
    const available = lineOf(view, '- status: "True"');
    expect(managersOn(view, available)).toEqual(['kube-controller-manager']);
    expect(view.lines[available - 1]!.owners[0]!.subresource).toBe('status');
    expect(managersOn(view, lineOf(view, 'replicas: 3', 1))).toEqual(['kube-controller-manager']);
  });

  it('builds a legend with one stable colour per manager', () => {
    expect(view.legend.map((e) => e.manager)).toEqual(['alice', 'bob', 'kube-controller-manager']);
    expect(view.legend[2]).toMatchObject({ operations: ['Update'], subresources: ['status'] });
    expect(new Set(view.legend.map((e) => e.colour)).size).toBe(3);
    expect(ownershipView(deployment).legend).toEqual(view.legend);
  });

  it('maps conflict causes to the lines to mark', () => {
    const causes = [{ field: '.spec.replicas' }, { field: '.spec.template.spec.containers[name="web"].image' }];
    expect(conflictLines(view, causes)).toEqual([lineOf(view, 'replicas: 3'), lineOf(view, 'image: nginx:1.25')].sort((a, b) => a - b));
    const item = conflictLines(view, [{ field: '.spec.template.spec.containers[name="web"].env[name="MODE"]' }]);
    expect(item).toEqual([lineOf(view, '- name: MODE'), lineOf(view, 'value: prod')]);
    expect(conflictLines(view, [{ field: '.spec.nothing' }, {}])).toEqual([]);
  });
});

describe('ownershipView on other shapes', () => {
  it('marks set items (v:) such as finalizers, one line each', () => {
    const obj = {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: {
        name: 'c', finalizers: ['example.com/a', 'example.com/b'],
        managedFields: [
          { manager: 'a', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:finalizers': { 'v:"example.com/a"': {} } } } },
          { manager: 'b', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:finalizers': { '.': {}, 'v:"example.com/b"': {} } } } },
        ],
      },
    };
    const view = ownershipView(obj);
    expect(managersOn(view, lineOf(view, '- example.com/a'))).toEqual(['a']);
    expect(managersOn(view, lineOf(view, '- example.com/b'))).toEqual(['b']);
    expect(managersOn(view, lineOf(view, 'finalizers:'))).toEqual(['b']);
    expect(view.lines[lineOf(view, '- example.com/b') - 1]!.paths).toEqual(['.metadata.finalizers[="example.com/b"]']);
    expect(conflictLines(view, [{ field: '.metadata.finalizers[="example.com/a"]' }])).toEqual([lineOf(view, '- example.com/a')]);
  });

  it('gives every line of a multi-line value to its owner, and keys with dots to theirs', () => {
    const obj = {
      apiVersion: 'v1', kind: 'ConfigMap',
      metadata: {
        name: 'c', annotations: { 'example.com/note': 'x' },
        managedFields: [
          { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:script': {} }, 'f:metadata': { 'f:annotations': { 'f:example.com/note': {} } } } },
          { manager: 'editor', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { '.': {}, 'f:other': {} } } },
        ],
      },
      data: { script: 'echo one\necho two\n', other: 'o' },
    };
    const view = ownershipView(obj);
    const start = lineOf(view, 'script: |');
    expect(managersOn(view, start)).toEqual(['kubectl']);
    expect(managersOn(view, start + 1)).toEqual(['kubectl']);
    expect(managersOn(view, start + 2)).toEqual(['kubectl']);
    expect(view.pathLines.get('.data.script')).toEqual([start, start + 1, start + 2]);
    expect(managersOn(view, lineOf(view, 'data:'))).toEqual(['editor']);
    expect(managersOn(view, lineOf(view, 'other: o'))).toEqual(['editor']);
    expect(managersOn(view, lineOf(view, 'example.com/note: x'))).toEqual(['kubectl']);
  });

  it('handles atomic lists by index (i:), empty maps and absent fields without marking anything wrong', () => {
    const obj = {
      spec: { list: ['a', 'b'], resources: {} },
      metadata: {
        managedFields: [
          { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:list': { 'i:1': {} }, 'f:resources': {}, 'f:gone': {} } } },
        ],
      },
    };
    const view = ownershipView(obj);
    expect(managersOn(view, lineOf(view, '- a'))).toEqual([]);
    expect(managersOn(view, lineOf(view, '- b'))).toEqual(['m']);
    expect(view.lines[lineOf(view, '- b') - 1]!.paths).toEqual(['.spec.list[1]']);
    expect(managersOn(view, lineOf(view, 'resources: {}'))).toEqual(['m']);
    expect(view.pathLines.has('.spec.gone')).toBe(false);
  });

  it('ignores entries in other field formats and objects without managedFields', () => {
    const view = ownershipView({ metadata: { name: 'x', managedFields: [{ manager: 'q', fieldsType: 'FieldsV2', fieldsV1: { 'f:metadata': { 'f:name': {} } } }] } });
    expect(view.lines.every((l) => l.owners.length === 0)).toBe(true);
    expect(ownershipView({ a: 1 }).lines).toEqual([{ line: 1, paths: ['.a'], owners: [] }]);
  });

  it('shows raw managedFields on request, owned by nobody', () => {
    const view = ownershipView(deployment, { showManagedFields: true });
    const line = lineOf(view, 'managedFields:');
    expect(managersOn(view, line)).toEqual([]);
    expect(managersOn(view, lineOf(view, 'replicas: 3'))).toEqual(['alice', 'bob']);
  });
});

describe('colours and descriptions', () => {
  it('derives a colour from the name alone and resolves clashes deterministically', () => {
    expect(hueSlot('alice')).toBe(hueSlot('alice'));
    const alone = colourForManagers([{ manager: 'alice', operation: 'Apply', subresource: '' }]);
    const withOthers = colourForManagers([{ manager: 'zed', operation: 'Update', subresource: '' }, { manager: 'alice', operation: 'Apply', subresource: '' }]);
    expect(withOthers.find((e) => e.manager === 'alice')!.colour).toBe(alone[0]!.colour);
    // 30 managers over the 8 palette colours: the first 8 distinct, every mark distinct.
    const many = colourForManagers(Array.from({ length: 30 }, (_, i) => ({ manager: `m${i}`, operation: 'Apply', subresource: '' })));
    expect(new Set(many.slice(0, 8).map((e) => e.colour)).size).toBe(8);
    expect(new Set(many.map((e) => e.mark)).size).toBe(30);
  });

  it('marks managers with a letter, two when initials clash', () => {
    const marks = colourForManagers(['alice', 'amy', 'bob', 'kube-controller-manager', 'kube-scheduler', 'manager-a', 'manager-b'].map((manager) => ({ manager, operation: 'Apply', subresource: '' }))).map((e) => [e.manager, e.mark]);
    expect(marks).toEqual([['alice', 'A'], ['amy', 'Ay'], ['bob', 'B'], ['kube-controller-manager', 'K'], ['kube-scheduler', 'Ks'], ['manager-a', 'M'], ['manager-b', 'Mb']]);
  });

  it('describes an owner for a hover', () => {
    expect(describeOwner({ manager: 'kcm', operation: 'Update', apiVersion: 'apps/v1', subresource: 'status', time: 't' })).toBe('kcm (Update, apps/v1, subresource status, t)');
    expect(describeOwner({ manager: 'x', operation: '', apiVersion: '', subresource: '', time: '' })).toBe('x');
  });
});

describe('keys named as Object.prototype members', () => {
  it('prints a data key named __proto__', () => {
    const obj = JSON.parse('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"toString":"b","__proto__":"a"}}');
    expect(toStableYaml(obj)).toBe('apiVersion: v1\ndata:\n  __proto__: a\n  toString: b\nkind: ConfigMap\nmetadata:\n  name: c\n');
  });
});

