import { describe, expect, it } from 'vitest';
import { flowSchemaPrinter, priorityLevelConfigurationPrinter } from './flowcontrol';
import { printerFor } from '../../../kinds';
import { buildTable } from '../index';

const NOW = Date.parse('2024-01-01T12:00:00Z');
const meta = (name: string) => ({ name, creationTimestamp: '2024-01-01T11:59:00Z' });

describe('flowcontrol printers', () => {
  it('FlowSchema: priority level, precedence, distinguisher, and "?" until the Dangling condition exists', () => {
    expect(flowSchemaPrinter.columns.map((c) => c.name)).toEqual(['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
    const fs = { metadata: meta('mine'), spec: { priorityLevelConfiguration: { name: 'pl' }, matchingPrecedence: 42, distinguisherMethod: { type: 'ByNamespace' } } };
    expect(flowSchemaPrinter.print(fs, NOW).cells).toEqual(['mine', 'pl', 42, 'ByNamespace', '60s', '?']);
    const dangling = { ...fs, spec: { priorityLevelConfiguration: { name: 'gone' } }, status: { conditions: [{ type: 'Other', status: 'False' }, { type: 'Dangling', status: 'True' }] } };
    expect(flowSchemaPrinter.print(dangling, NOW).cells).toEqual(['mine', 'gone', 0, '<none>', '60s', 'True']);
  });

  it('a FlowSchema list comes out in matching order', () => {
    const fs = (name: string, p: number) => ({ metadata: meta(name), spec: { matchingPrecedence: p } });
    const t = buildTable(printerFor('flowcontrol.apiserver.k8s.io', 'FlowSchema'), [fs('b', 800), fs('catch-all', 10000), fs('a', 800), fs('exempt', 1)], { resourceVersion: '7' }, { includeObject: 'None', apiVersion: 'meta.k8s.io/v1', now: NOW }) as { rows: { cells: unknown[] }[] };
    expect(t.rows.map((r) => r.cells[0])).toEqual(['exempt', 'a', 'b', 'catch-all']);
  });

  it('PriorityLevelConfiguration: shares and queuing of limited levels, <none> otherwise', () => {
    expect(priorityLevelConfigurationPrinter.columns.map((c) => c.name)).toEqual(['Name', 'Type', 'AssuredConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
    const queued = { metadata: meta('q'), spec: { type: 'Limited', limited: { assuredConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } } };
    expect(priorityLevelConfigurationPrinter.print(queued, NOW).cells).toEqual(['q', 'Limited', 30, 64, 6, 50, '60s']);
    const rejecting = { metadata: meta('r'), spec: { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } };
    expect(priorityLevelConfigurationPrinter.print(rejecting, NOW).cells).toEqual(['r', 'Limited', 5, '<none>', '<none>', '<none>', '60s']);
    expect(priorityLevelConfigurationPrinter.print({ metadata: meta('e'), spec: { type: 'Exempt' } }, NOW).cells).toEqual(['e', 'Exempt', '<none>', '<none>', '<none>', '<none>', '60s']);
  });
});
