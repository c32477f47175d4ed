// Pod rows: the STATUS reason logic of kube-apiserver v1.23 (init containers, waiting and
// terminated reasons, Terminating), READY counts and RESTARTS with the time of the last restart.
import { AGE_COLUMN, NAME_COLUMN, asArray, asRecord, column, int, str } from '../format';
import { age, humanDuration, parseTimestamp } from '../time';
import type { KubeObject, Printer, RowCondition } from '../types';

const SUCCEEDED: RowCondition[] = [
  { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
];
const FAILED: RowCondition[] = [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];

/** Reason the node controller records on pods of an unreachable node. */
const NODE_LOST = 'NodeLost';

function hasReadyCondition(status: KubeObject): boolean {
  return asArray(status.conditions).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Tracks the most recent lastState.terminated.finishedAt across containers. */
function laterRestart(current: number | null, container: KubeObject): number | null {
  const finished = parseTimestamp(asRecord(asRecord(container.lastState).terminated).finishedAt);
  if (finished === null || Number.isNaN(finished)) return current;
  return current === null || finished > current ? finished : current;
}

function terminatedReason(term: KubeObject, prefix: string): string {
  if (str(term.reason) !== '') return prefix + str(term.reason);
  return int(term.signal) !== 0 ? `${prefix}Signal:${int(term.signal)}` : `${prefix}ExitCode:${int(term.exitCode)}`;
}

function printPod(pod: KubeObject, now: number) {
  const meta = asRecord(pod.metadata);
  const spec = asRecord(pod.spec);
  const status = asRecord(pod.status);
  const total = asArray(spec.containers).length;
  let ready = 0;
  let restarts = 0;
  let lastRestart: number | null = null;
  let reason = str(status.reason) || str(status.phase);

  // Only the first init container that has not completed decides the status.
  let initializing = false;
  const initStatuses = asArray(status.initContainerStatuses);
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += int(c.restartCount);
    lastRestart = laterRestart(lastRestart, c);
    const state = asRecord(c.state);
    const term = state.terminated ? asRecord(state.terminated) : null;
    const waiting = state.waiting ? asRecord(state.waiting) : null;
    if (term && int(term.exitCode) === 0) continue;
    if (term) reason = terminatedReason(term, 'Init:');
    else if (waiting && str(waiting.reason) !== '' && waiting.reason !== 'PodInitializing') reason = `Init:${str(waiting.reason)}`;
    else reason = `Init:${i}/${asArray(spec.initContainers).length}`;
    initializing = true;
    break;
  }

  if (!initializing) {
    restarts = 0;
    let hasRunning = false;
    const statuses = asArray(status.containerStatuses);
    // Walked backwards so that the first container's reason wins, as upstream does.
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += int(c.restartCount);
      lastRestart = laterRestart(lastRestart, c);
      const state = asRecord(c.state);
      const term = state.terminated ? asRecord(state.terminated) : null;
      const waiting = state.waiting ? asRecord(state.waiting) : null;
      if (waiting && str(waiting.reason) !== '') reason = str(waiting.reason);
      else if (term) reason = terminatedReason(term, '');
      else if (c.ready === true && state.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) reason = hasReadyCondition(status) ? 'Running' : 'NotReady';
  }

  if (meta.deletionTimestamp && status.reason === NODE_LOST) reason = 'Unknown';
  else if (meta.deletionTimestamp) reason = 'Terminating';

  const restartsCell = lastRestart === null ? String(restarts) : `${restarts} (${humanDuration(now - lastRestart)} ago)`;

  // status.podIPs is authoritative in v1.23; podIP is read when a store kept only the old field.
  const podIPs = asArray(status.podIPs);
  const podIP = (podIPs.length > 0 ? str(podIPs[0].ip) : str(status.podIP)) || '<none>';
  const gates = asArray(spec.readinessGates);
  let readinessGates = '<none>';
  if (gates.length > 0) {
    let trueCount = 0;
    for (const gate of gates) {
      const cond = asArray(status.conditions).find((c) => c.type === gate.conditionType);
      if (cond && cond.status === 'True') trueCount++;
    }
    readinessGates = `${trueCount}/${gates.length}`;
  }

  const cells = [
    str(meta.name),
    `${ready}/${total}`,
    reason,
    restartsCell,
    age(meta.creationTimestamp, now),
    podIP,
    str(spec.nodeName) || '<none>',
    str(status.nominatedNodeName) || '<none>',
    readinessGates,
  ];
  const conditions = status.phase === 'Succeeded' ? SUCCEEDED : status.phase === 'Failed' ? FAILED : undefined;
  return conditions ? { cells, conditions } : { cells };
}

export const podPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    column('Ready', 'string', 'Ready containers out of all containers of the pod.'),
    column('Status', 'string', 'Summary of the pod phase and container states.'),
    column('Restarts', 'string', 'Container restarts in total, with the time since the last one.'),
    AGE_COLUMN,
    column('IP', 'string', 'Primary IP address of the pod.', 1),
    column('Node', 'string', 'Node the pod is bound to.', 1),
    column('Nominated Node', 'string', 'Node the scheduler nominated while preempting other pods.', 1),
    column('Readiness Gates', 'string', 'Readiness gates whose condition is True, out of all gates.', 1),
  ],
  print: printPod,
};
