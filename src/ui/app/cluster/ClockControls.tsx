// The cluster clock in the header: the cluster's time, pause / resume, step forward (+1 s, +10 s)
// and the speed, kept small so the header stays one line. Stepping pauses the clock and answers once the controllers have done
// what the step started, so a learner walks a rollout one kubelet delay at a time. Shown only on
// the browser host (the Node host keeps real time, at its --clock-speed).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Pause, Play } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { clockAction, NoAdminEndpoints, readClock } from '../../../hosts/sw/page/page-client';
import type { ClockAction, HostClock } from '../../../hosts/sw/protocol';
import { clusterTime } from './clock-format';
import { clockKey } from './cluster-now';
import { queryKeys } from '../../lib/query-keys';
import './cluster.css';



const STEPS: ReadonlyArray<[ms: number, label: string]> = [
  [1000, '+1s'],
  [10_000, '+10s'],
];
const SPEEDS = [0.5, 1, 2, 5, 10, 60];

/**
 * The cluster time as last read, kept current between reads from its speed: no request per tick,
 * and no React render either — the text is written straight into the element when it changes, so
 * a burst of watch events elsewhere on the page keeps its one React commit per frame.
 */
function ClusterTimeText({ clock, readAt }: { clock: HostClock | undefined; readAt: number }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const show = () => {
      const text = !clock ? '—' : clusterTime(clock.paused ? clock.now : clock.now + (Date.now() - readAt) * clock.speed);
      if (el.textContent !== text) el.textContent = text;
    };
    show();
    if (!clock || clock.paused) return;
    const timer = setInterval(show, 250);
    return () => clearInterval(timer);
  }, [clock, readAt]);
  return <span role="timer" data-testid="cluster-time" ref={ref} />;
}

export function ClockControls({ apiBase }: { apiBase: string }) {
  const queryClient = useQueryClient();
  const key = clockKey(apiBase);
  // Read again now and then (another tab may have paused it); the text ticks on between reads.
  const clock = useQuery({ queryKey: key, queryFn: () => readClock(apiBase), refetchInterval: 10_000 });
  const act = useMutation({
    mutationFn: (action: ClockAction) => clockAction(apiBase, action),
    onSuccess: (answer, action) => {
      queryClient.setQueryData(key, answer);
      // The worker keeps a new speed with the settings: the Settings form must not put the old one back.
      if (action.action === 'speed') void queryClient.invalidateQueries({ queryKey: queryKeys.hostSettings(apiBase) });
    },
  });
  // The Node host has no clock endpoint: nothing to control there.
  if (clock.error instanceof NoAdminEndpoints) return null;
  const state = clock.data;
  const busy = act.isPending || !state;
  const send = (action: ClockAction) => act.mutate(action);
  const speed = state?.speed ?? 1;
  return (
    <div className="clock-controls" role="group" aria-label="Cluster clock">
      <span className={state?.paused ? 'clock-time paused' : 'clock-time'} title={`Cluster time (UTC)${state?.paused ? ', paused' : ''}: what the controllers, the kubelets and the timestamps see`}>
        <ClusterTimeText clock={clock.data} readAt={clock.dataUpdatedAt} />
        {state?.paused && <span className="clock-paused" data-testid="clock-paused">paused</span>}
      </span>
      {state?.paused ? (
        <button type="button" className="clock-button clock-resume" onClick={() => send({ action: 'resume' })} disabled={busy} aria-label="Resume the cluster clock" title="Resume: time runs again">
          <Play aria-hidden="true" size={14} />
        </button>
      ) : (
        <button type="button" className="clock-button" onClick={() => send({ action: 'pause' })} disabled={busy} aria-label="Pause the cluster clock" title="Pause: kubelet delays, deadlines and timers wait">
          <Pause aria-hidden="true" size={14} />
        </button>
      )}
      {STEPS.map(([ms, label]) => (
        <button key={ms} type="button" className={ms === 1000 ? 'clock-button' : 'clock-button clock-big-step'} onClick={() => send({ action: 'step', ms })} disabled={busy} aria-label={`Step the cluster clock forward ${label.slice(1)}`} title={`Pause and move time forward ${label.slice(1)}, timer by timer`}>
          {label}
        </button>
      ))}
      <label className="clock-speed" title="How many times faster than real time the cluster clock runs">
        <span className="sr-only">Clock speed</span>
        <select value={speed} disabled={busy} onChange={(e) => send({ action: 'speed', speed: Number(e.target.value) })}>
          {[...new Set([...SPEEDS, speed])].sort((a, b) => a - b).map((s) => (
            <option key={s} value={s}>
              {s}×
            </option>
          ))}
        </select>
      </label>
      {act.error && (
        <span role="alert" className="bad clock-error">
          {act.error instanceof Error ? act.error.message : String(act.error)}
        </span>
      )}
    </div>
  );
}
