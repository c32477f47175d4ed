// `GET|POST <base>/__playground/clock`: the cluster clock the page pauses, steps, resumes and
// speeds up. A step pauses the clock (a learner stepping wants time to stand still between
// steps) and moves it timer by timer, letting the controllers finish what each timer started
// before the next fires — so a rollout stepped by 10 s ends where 10 s of real time would have
// taken it. Steps are serialised: a second click waits for the first.
import type { PlaygroundClock } from '../../core/controllers/clock';
import type { ApiRuntime } from './api-runtime';
import type { ClockAction, HostClock } from './protocol';
import type { SettingsStore } from './settings-store';

/** The longest single step: an hour of cluster time (10-second lease renewals make it ~400 timers per node). */
export const MAX_STEP_MS = 3_600_000;

export interface ClockAdmin {
  read(): Promise<HostClock>;
  /** Applies an action; a refusal is a string (the 400 message). */
  act(input: unknown): Promise<HostClock | string>;
}

export function createClockAdmin(runtime: ApiRuntime, clock: PlaygroundClock, settings?: SettingsStore): ClockAdmin {
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };

  const read = async (): Promise<HostClock> => {
    const server = await runtime.server();
    return { ...clock.state(), cluster: Boolean(server.controllers) };
  };

  const act = (input: unknown): Promise<HostClock | string> =>
    serial(async () => {
      const action = checkAction(input);
      if (typeof action === 'string') return action;
      switch (action.action) {
        case 'pause':
          clock.pause();
          break;
        case 'resume':
          clock.resume();
          break;
        case 'speed':
          clock.setSpeed(action.speed);
          // Kept with the settings, so the next start (and the Settings form) has the same speed.
          if (settings) await settings.save({ ...(await settings.load()), clockSpeed: action.speed });
          break;
        case 'step': {
          clock.pause();
          const server = await runtime.server();
          // The controllers settle between timers; without a cluster, time just moves.
          if (server.controllers?.clock === clock) await server.controllers.advance(action.ms);
          else clock.advance(action.ms);
          break;
        }
      }
      return read();
    });

  return { read, act };
}

function checkAction(input: unknown): ClockAction | string {
  const raw = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  switch (raw.action) {
    case 'pause':
    case 'resume':
      return { action: raw.action };
    case 'step': {
      const ms = raw.ms;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0 || ms > MAX_STEP_MS) return `step: ms must be a number of milliseconds in (0, ${MAX_STEP_MS}]`;
      return { action: 'step', ms };
    }
    case 'speed': {
      const speed = raw.speed;
      if (typeof speed !== 'number' || !(speed > 0) || !Number.isFinite(speed) || speed > 1000) return 'speed: want a positive number up to 1000';
      return { action: 'speed', speed };
    }
    default:
      return `unknown clock action ${JSON.stringify(raw.action)}: want pause, resume, step or speed`;
  }
}
