import { describe, expect, it } from 'vitest';
import { printerFor } from '../../kinds';
import { buildTable, humanDuration, toPartialObjectMetadata } from './index';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const v1 = { apiVersion: 'meta.k8s.io/v1', now: NOW };

const cm = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'x',
    namespace: 'default',
    uid: 'u-1',
    resourceVersion: '42',
    creationTimestamp: '2024-01-01T11:55:00Z',
    labels: { app: 'demo' },
    managedFields: [{ manager: 'kubectl', operation: 'Apply' }],
  },
  data: { a: '1' },
};

describe('buildTable', () => {
  it('builds a Table with metadata, columns and PartialObjectMetadata rows by default', () => {
    const table = buildTable(printerFor('', 'ConfigMap'), [cm], { resourceVersion: '106', continue: 'abc', remainingItemCount: 2 }, { ...v1, includeObject: 'Metadata' });
    expect(table).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '106', continue: 'abc', remainingItemCount: 2 },
      columnDefinitions: [
        { name: 'Name', type: 'string', format: 'name', description: expect.any(String), priority: 0 },
        { name: 'Data', type: 'string', format: '', description: expect.any(String), priority: 0 },
        { name: 'Age', type: 'string', format: '', description: expect.any(String), priority: 0 },
      ],
      rows: [
        {
          cells: ['x', 1, '5m'],
          object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata },
        },
      ],
    });
    // Key order is part of the wire format kubectl users can see with -o json/--raw.
    expect(Object.keys(table)).toEqual(['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
    expect(Object.keys((table as { columnDefinitions: object[] }).columnDefinitions[0])).toEqual(['name', 'type', 'format', 'description', 'priority']);
  });

  it('omits empty list metadata fields', () => {
    const table = buildTable(printerFor('', 'ConfigMap'), [], { resourceVersion: '7', continue: '' }, { ...v1, includeObject: 'Metadata' }) as Record<string, unknown>;
    expect(table.metadata).toEqual({ resourceVersion: '7' });
    expect(table.rows).toEqual([]);
  });

  it('carries the full object, or none, on request', () => {
    const full = buildTable(printerFor('', 'ConfigMap'), [cm], {}, { ...v1, includeObject: 'Object' }) as { rows: Record<string, unknown>[] };
    expect(full.rows[0].object).toBe(cm);
    const none = buildTable(printerFor('', 'ConfigMap'), [cm], {}, { ...v1, includeObject: 'None' }) as { rows: Record<string, unknown>[] };
    expect(none.rows[0]).toEqual({ cells: ['x', 1, '5m'] });
    expect('object' in none.rows[0]).toBe(false);
  });

  it('uses v1beta1 for the Table and the partial metadata when asked', () => {
    const t = buildTable(printerFor('', 'ConfigMap'), [cm], {}, { apiVersion: 'meta.k8s.io/v1beta1', now: NOW, includeObject: 'Metadata' }) as { apiVersion: string; rows: { object: { apiVersion: string } }[] };
    expect(t.apiVersion).toBe('meta.k8s.io/v1beta1');
    expect(t.rows[0].object.apiVersion).toBe('meta.k8s.io/v1beta1');
  });

  it('sends columnDefinitions: null with noHeaders (later watch events)', () => {
    const t = buildTable(printerFor('', 'ConfigMap'), [cm], { resourceVersion: '43' }, { ...v1, includeObject: 'Metadata', noHeaders: true });
    expect(JSON.parse(JSON.stringify(t)).columnDefinitions).toBeNull();
  });

  it('puts pod row conditions between cells and object', () => {
    const pod = { metadata: { name: 'done', creationTimestamp: '2024-01-01T11:00:00Z' }, spec: { containers: [{ name: 'c' }] }, status: { phase: 'Succeeded' } };
    const t = buildTable(printerFor('', 'Pod'), [pod], {}, { ...v1, includeObject: 'Metadata' }) as { rows: Record<string, unknown>[] };
    expect(Object.keys(t.rows[0])).toEqual(['cells', 'conditions', 'object']);
  });

  it('uses the generic Name/Created At table for kinds without a printer', () => {
    const role = { metadata: { name: 'reader', creationTimestamp: '2024-01-01T10:00:00.5Z' }, rules: [] };
    for (const [group, kind] of [['rbac.authorization.k8s.io', 'Role'], ['rbac.authorization.k8s.io', 'ClusterRole'], ['apiextensions.k8s.io', 'CustomResourceDefinition'], ['', 'LimitRange']]) {
      const t = buildTable(printerFor(group, kind), [role], {}, { ...v1, includeObject: 'None' }) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
      expect(t.columnDefinitions.map((c) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Created At:date']);
      expect(t.rows[0].cells).toEqual(['reader', '2024-01-01T10:00:00Z']);
    }
  });

  it('dispatches by group as well as kind', () => {
    const dep = { metadata: { name: 'web', creationTimestamp: '2024-01-01T11:00:00Z' }, spec: { replicas: 1 }, status: {} };
    const apps = buildTable(printerFor('apps', 'Deployment'), [dep], {}, { ...v1, includeObject: 'None' }) as { rows: { cells: unknown[] }[] };
    expect(apps.rows[0].cells.slice(0, 2)).toEqual(['web', '0/1']);
    const other = buildTable(printerFor('example.com', 'Deployment'), [dep], {}, { ...v1, includeObject: 'None' }) as { rows: { cells: unknown[] }[] };
    expect(other.rows[0].cells).toEqual(['web', '2024-01-01T11:00:00Z']);
  });

  it('re-exports humanDuration and builds PartialObjectMetadata', () => {
    expect(humanDuration(2 * 86_400_000 + 3 * 3_600_000)).toBe('2d3h');
    expect(toPartialObjectMetadata(cm, 'meta.k8s.io/v1')).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata });
    expect(toPartialObjectMetadata({}, 'meta.k8s.io/v1')).toEqual({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: {} });
  });
});

describe('custom resource tables', () => {
  const widget = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w1', creationTimestamp: '2024-01-01T11:00:00Z' },
    spec: { replicas: 3, ratio: 0.25, enabled: true, items: [{ name: 'first' }, { name: 'second' }], list: [{ name: 'l1' }, { name: 'l2' }], size: '10' },
    status: { conditions: [{ type: 'Synced', status: 'True' }, { type: 'Ready', status: 'False' }], observed: '2024-01-01T11:59:00Z' },
  };

  it('defaults to Name + Age when the CRD declares no columns', () => {
    const t = buildTable(printerFor('example.com', 'Widget'), [widget], { resourceVersion: '9' }, { ...v1, includeObject: 'Metadata' }, []) as {
      columnDefinitions: { name: string; type: string }[];
      rows: { cells: unknown[] }[];
    };
    expect(t.columnDefinitions.map((c) => `${c.name}:${c.type}`)).toEqual(['Name:string', 'Age:date']);
    expect(t.rows[0].cells).toEqual(['w1', '60m']);
  });

  it('evaluates additionalPrinterColumns with their types', () => {
    const columns = [
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', description: 'Ready condition' },
      { name: 'First', type: 'string', jsonPath: '.spec.items[0].name', priority: 1 },
      { name: 'Names', type: 'string', jsonPath: '.spec.list[*].name' },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', format: 'float' },
      { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
      { name: 'Observed', type: 'date', jsonPath: '.status.observed' },
      { name: 'Created', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'Missing', type: 'string', jsonPath: '.spec.nothing' },
      { name: 'Mistyped', type: 'integer', jsonPath: '.spec.size' },
      { name: 'Items', type: 'string', jsonPath: '.spec.items' },
    ];
    const t = buildTable(printerFor('example.com', 'Widget'), [widget], {}, { ...v1, includeObject: 'None' }, columns) as {
      columnDefinitions: Record<string, unknown>[];
      rows: { cells: unknown[] }[];
    };
    expect(t.columnDefinitions[1]).toEqual({ name: 'Replicas', type: 'integer', format: '', description: 'Custom resource definition column (in JSONPath format): .spec.replicas', priority: 0 });
    expect(t.columnDefinitions[2].description).toBe('Ready condition');
    expect(t.columnDefinitions[3].priority).toBe(1);
    expect(t.columnDefinitions[5].format).toBe('float');
    expect(t.rows[0].cells).toEqual(['w1', 3, 'False', 'first', 'l1', 0.25, true, '60s', '60m', null, null, '[map[name:first] map[name:second]]']);
  });

  it('prints <invalid> for unparseable dates and tolerates bad paths', () => {
    const t = buildTable(printerFor('example.com', 'Widget'), [{ metadata: { name: 'w' }, spec: { when: 'soon' } }], {}, { ...v1, includeObject: 'None' }, [
      { name: 'When', type: 'date', jsonPath: '.spec.when' },
      { name: 'Bad', type: 'string', jsonPath: '.spec[' },
    ]) as { rows: { cells: unknown[] }[] };
    expect(t.rows[0].cells).toEqual(['w', '<invalid>', null]);
  });
});
