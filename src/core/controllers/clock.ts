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

/** RFC 3339 with seconds, as kube writes metav1.Time. */
export function rfc3339Seconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
