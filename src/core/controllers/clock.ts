// Time as the simulated cluster sees it. Controllers never call Date.now or setTimeout directly:
// the hosts run a real clock (optionally sped up, so kubelet delays and progress deadlines pass
// faster), and tests run a virtual one that moves only when told, so they are deterministic.

export interface Clock {
  /** Milliseconds since the epoch, as the cluster sees them. */
  now(): number;
  /** Runs `fn` once after `ms` of cluster time; the returned function cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/**
 * Wall-clock time with a speed factor: at speed 10 a 5 s kubelet delay takes half a second.
 * `now()` runs faster too, from the moment the clock was made, so timestamps stay consistent
 * with the delays that produced them.
 */
export class RealClock implements Clock {
  private readonly start = Date.now();
  constructor(private readonly speed = 1) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`clock speed must be a positive number, got ${speed}`);
  }

  now(): number {
    return this.start + Math.round((Date.now() - this.start) * this.speed);
  }

  after(ms: number, fn: () => void): () => void {
    const timer = setTimeout(fn, Math.max(0, ms / this.speed));
    // A pending kubelet delay must not keep a Node process alive after close().
    (timer as { unref?: () => void } | undefined)?.unref?.();
    return () => clearTimeout(timer);
  }
}

interface VirtualTimer {
  at: number;
  seq: number;
  fn: () => void;
}

/** A clock that stands still until `advance(ms)`; timers fire in time order as it passes them. */
export class VirtualClock implements Clock {
  private current: number;
  private seq = 0;
  private timers: VirtualTimer[] = [];

  constructor(start = Date.UTC(2022, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  after(ms: number, fn: () => void): () => void {
    const timer: VirtualTimer = { at: this.current + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** When the next timer fires, or undefined when none is set. */
  nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const t of this.timers) if (next === undefined || t.at < next) next = t.at;
    return next;
  }

  /** Moves time forward, firing every timer due on the way (each at its own time). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.fn();
    }
    this.current = target;
  }
}

/** A clock that `ControllerManager.advance` can step timer by timer (virtual, or the playground's while paused). */
export interface SteppableClock extends Clock {
  nextTimerAt(): number | undefined;
  advance(ms: number): void;
}

export function isSteppable(clock: Clock): clock is SteppableClock {
  return typeof (clock as Partial<SteppableClock>).nextTimerAt === 'function' && typeof (clock as Partial<SteppableClock>).advance === 'function';
}

/** What the page shows of the playground's clock. */
export interface ClockState {
  /** Cluster time, ms since the epoch. */
  now: number;
  paused: boolean;
  speed: number;
  /** Timers waiting (kubelet delays, progress deadlines, lease renewals). */
  timers: number;
  /** Cluster time of the next timer, when one is set. */
  nextTimerAt?: number;
}

/**
 * The browser playground's clock: real time at a speed factor that can change, pause and resume,
 * and — paused — be stepped forward, firing the timers due on the way in time order (each at its
 * own time), as the VirtualClock of the tests does. Unlike RealClock, timers live here rather than
 * in setTimeout, so that a pause holds them and a step fires them; only the earliest one has a
 * real timeout, re-armed whenever the speed, the pause or the set of timers changes.
 */
export class PlaygroundClock implements SteppableClock {
  /** Cluster time at `baseWall`; cluster time runs from there at `speed` unless paused. */
  private baseCluster: number;
  private baseWall: number;
  private currentSpeed: number;
  private isPaused = false;
  private seq = 0;
  private timers: VirtualTimer[] = [];
  private armed: ReturnType<typeof setTimeout> | undefined;
  private readonly wallNow: () => number;

  /** `paused`: starts paused at `start` (pausing after construction could let a millisecond pass). */
  constructor(opts: { speed?: number; start?: number; paused?: boolean; wallNow?: () => number } = {}) {
    this.wallNow = opts.wallNow ?? (() => Date.now());
    this.baseWall = this.wallNow();
    this.baseCluster = opts.start ?? this.baseWall;
    this.currentSpeed = checkSpeed(opts.speed ?? 1);
    this.isPaused = opts.paused ?? false;
  }

  now(): number {
    if (this.isPaused) return this.baseCluster;
    return this.baseCluster + Math.round((this.wallNow() - this.baseWall) * this.currentSpeed);
  }

  after(ms: number, fn: () => void): () => void {
    const timer: VirtualTimer = { at: this.now() + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    this.arm();
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
      this.arm();
    };
  }

  state(): ClockState {
    const next = this.nextTimerAt();
    return { now: this.now(), paused: this.isPaused, speed: this.currentSpeed, timers: this.timers.length, ...(next !== undefined ? { nextTimerAt: next } : {}) };
  }

  get paused(): boolean {
    return this.isPaused;
  }

  pause(): void {
    if (this.isPaused) return;
    this.rebase();
    this.isPaused = true;
    this.arm();
  }

  resume(): void {
    if (!this.isPaused) return;
    this.isPaused = false;
    this.baseWall = this.wallNow();
    this.arm();
  }

  setSpeed(speed: number): void {
    checkSpeed(speed);
    this.rebase();
    this.currentSpeed = speed;
    this.arm();
  }

  nextTimerAt(): number | undefined {
    let next: number | undefined;
    for (const t of this.timers) if (next === undefined || t.at < next) next = t.at;
    return next;
  }

  /** Jumps forward by `ms`, firing every timer due on the way at its own time (paused or not). */
  advance(ms: number): void {
    const target = this.now() + Math.max(0, ms);
    for (;;) {
      const due = this.takeDue(target);
      if (!due) break;
      this.setNow(Math.max(this.now(), due.at));
      due.fn();
    }
    this.setNow(target);
    this.arm();
  }

  /** Cancels the real timeout (the worker or a test is done with this clock). */
  dispose(): void {
    if (this.armed !== undefined) clearTimeout(this.armed);
    this.armed = undefined;
    this.timers = [];
  }

  private rebase(): void {
    this.baseCluster = this.now();
    this.baseWall = this.wallNow();
  }

  private setNow(at: number): void {
    this.baseCluster = at;
    this.baseWall = this.wallNow();
  }

  private takeDue(target: number): VirtualTimer | undefined {
    const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
    if (due) this.timers = this.timers.filter((t) => t !== due);
    return due;
  }

  /** One real timeout for the earliest timer, none while paused. */
  private arm(): void {
    if (this.armed !== undefined) clearTimeout(this.armed);
    this.armed = undefined;
    const next = this.nextTimerAt();
    if (this.isPaused || next === undefined) return;
    const wait = Math.max(0, (next - this.now()) / this.currentSpeed);
    this.armed = setTimeout(() => {
      this.armed = undefined;
      for (;;) {
        const due = this.takeDue(this.now());
        if (!due) break;
        due.fn();
      }
      this.arm();
    }, wait);
    // A pending kubelet delay must not keep a Node process (or a test) alive.
    (this.armed as { unref?: () => void } | undefined)?.unref?.();
  }
}

function checkSpeed(speed: number): number {
  if (!(speed > 0) || !Number.isFinite(speed)) throw new Error(`clock speed must be a positive number, got ${speed}`);
  return speed;
}

/** RFC 3339 with seconds, as kube writes metav1.Time. */
export function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
