// API Priority and Fairness kinds as kube-apiserver v1.23 prints them: FlowSchema (its list in
// matching order, the order requests are classified in) and PriorityLevelConfiguration.
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, int, str } from '../format';
import { age } from '../time';
import type { KubeObject, Printer } from '../types';

const name = (obj: KubeObject): string => str(asRecord(obj.metadata).name);
const created = (obj: KubeObject, now: number): string => age(asRecord(obj.metadata).creationTimestamp, now);

/** Increasing matchingPrecedence, then name (a stable copy; the stored order is by name). */
function matchingOrder(items: KubeObject[]): KubeObject[] {
  const precedence = (o: KubeObject) => int(asRecord(o?.spec).matchingPrecedence);
  return [...items].sort((a, b) => precedence(a) - precedence(b) || (name(a ?? {}) < name(b ?? {}) ? -1 : name(a ?? {}) > name(b ?? {}) ? 1 : 0));
}

export const flowSchemaPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('PriorityLevel', 'string', 'Name of the PriorityLevelConfiguration requests of this schema go to.'),
    column('MatchingPrecedence', 'string', 'Order in which schemas are tried; lower numbers are tried first.'),
    column('DistinguisherMethod', 'string', 'How requests are split into flows (ByUser, ByNamespace), if at all.'),
    AGE_COLUMN,
    column('MissingPL', 'string', 'Whether the referenced PriorityLevelConfiguration is missing or broken.'),
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    const method = spec.distinguisherMethod;
    const distinguisher = method !== undefined && method !== null ? str(asRecord(method).type) : '<none>';
    // The Dangling condition's status; "?" until the config controller has written one.
    const dangling = asArray(asRecord(obj.status).conditions).find((c) => c.type === 'Dangling');
    return {
      cells: [name(obj), str(asRecord(spec.priorityLevelConfiguration).name), int(spec.matchingPrecedence), distinguisher, created(obj, now), dangling ? str(dangling.status) : '?'],
    };
  },
  order: matchingOrder,
};

export const priorityLevelConfigurationPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Type', 'string', 'Exempt (never limited) or Limited.'),
    column('AssuredConcurrencyShares', 'string', 'Share of the server concurrency this level is assured.'),
    column('Queues', 'string', 'Number of queues of a queuing level.'),
    column('HandSize', 'string', 'Queues each flow is shuffle-sharded over.'),
    column('QueueLengthLimit', 'string', 'Requests a queue may hold.'),
    AGE_COLUMN,
  ],
  print(obj, now) {
    const spec = asRecord(obj.spec);
    let shares: number | string = '<none>';
    let queues: number | string = '<none>';
    let handSize: number | string = '<none>';
    let queueLengthLimit: number | string = '<none>';
    if (spec.limited !== undefined && spec.limited !== null) {
      const limited = asRecord(spec.limited);
      shares = int(limited.assuredConcurrencyShares);
      const queuing = asRecord(limited.limitResponse).queuing;
      if (queuing !== undefined && queuing !== null) {
        queues = int(asRecord(queuing).queues);
        handSize = int(asRecord(queuing).handSize);
        queueLengthLimit = int(asRecord(queuing).queueLengthLimit);
      }
    }
    return { cells: [name(obj), str(spec.type), shares, queues, handSize, queueLengthLimit, created(obj, now)] };
  },
};
