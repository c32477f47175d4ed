import { describe, expect, it } from 'vitest';
import { PlaygroundClock, RealClock, VirtualClock, isSteppable, rfc3339Seconds } from './clock';

describe('VirtualClock', () => {
  it('fires timers in time order as it passes them, each at its own time', () => {
    const clock = new VirtualClock(0);
    const fired: string[] = [];
    clock.after(300, () => fired.push(`b@${clock.now()}`));
    clock.after(100, () => fired.push(`a@${clock.now()}`));
    const cancel = clock.after(200, () => fired.push('cancelled'));
    cancel();
    clock.advance(250);
    expect(fired).toEqual(['a@100']);
    expect(clock.now()).toBe(250);
    expect(clock.nextTimerAt()).toBe(300);
    clock.advance(50);
    expect(fired).toEqual(['a@100', 'b@300']);
    expect(clock.nextTimerAt()).toBeUndefined();
  });

  it('runs a timer set by a firing timer when its time is within the step', () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    clock.after(10, () => clock.after(10, () => fired.push(clock.now())));
    clock.advance(25);
    expect(fired).toEqual([20]);
  });
});

describe('RealClock', () => {
  it('refuses a speed that is not positive', () => {
    expect(() => new RealClock(0)).toThrow('clock speed must be a positive number');
  });
  it('runs timers sooner at a higher speed', async () => {
    const clock = new RealClock(100);
    const start = Date.now();
    await new Promise<void>((resolve) => clock.after(1000, resolve));
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

it('writes metav1.Time with whole seconds', () => {
  expect(rfc3339Seconds(Date.UTC(2022, 0, 1, 0, 0, 1, 999))).toBe('2022-01-01T00:00:01Z');
});

describe('PlaygroundClock', () => {
  /** A wall clock the test moves by hand; the real timeouts are checked with fake timers elsewhere. */
  const wall = () => {
    let t = 1_000_000;
    return { now: () => t, move: (ms: number) => (t += ms) };
  };

  it('runs at its speed, stands still while paused and goes on from there on resume', () => {
    const w = wall();
    const clock = new PlaygroundClock({ speed: 10, start: 0, wallNow: w.now });
    w.move(100);
    expect(clock.now()).toBe(1000);
    clock.pause();
    w.move(5000);
    expect(clock.now()).toBe(1000);
    expect(clock.state()).toMatchObject({ now: 1000, paused: true, speed: 10 });
    clock.resume();
    w.move(10);
    expect(clock.now()).toBe(1100);
    clock.setSpeed(1);
    w.move(10);
    expect(clock.now()).toBe(1110);
    clock.dispose();
  });

  it('can start paused: no wall time passes into cluster time before the first resume', () => {
    const w = wall();
    const clock = new PlaygroundClock({ start: 500, paused: true, wallNow: w.now });
    w.move(7);
    expect(clock.state()).toMatchObject({ now: 500, paused: true });
    clock.resume();
    w.move(3);
    expect(clock.now()).toBe(503);
    clock.dispose();
  });

  it('fires timers in time order, each at its own time, when stepped while paused', () => {
    const w = wall();
    const clock = new PlaygroundClock({ start: 0, wallNow: w.now });
    clock.pause();
    const fired: string[] = [];
    clock.after(3000, () => fired.push(`b@${clock.now()}`));
    clock.after(1000, () => {
      fired.push(`a@${clock.now()}`);
      // A timer set by a firing one counts from the firing one's time.
      clock.after(500, () => fired.push(`c@${clock.now()}`));
    });
    expect(isSteppable(clock)).toBe(true);
    expect(clock.state()).toMatchObject({ timers: 2, nextTimerAt: 1000 });
    clock.advance(2000);
    expect(fired).toEqual(['a@1000', 'c@1500']);
    expect(clock.now()).toBe(2000);
    w.move(60_000);
    expect(fired).toHaveLength(2);
    clock.advance(1000);
    expect(fired).toEqual(['a@1000', 'c@1500', 'b@3000']);
    clock.dispose();
  });

  it('fires due timers by itself while running, faster at a higher speed', async () => {
    const clock = new PlaygroundClock({ speed: 1000 });
    const started = Date.now();
    const firedAt = await new Promise<number>((resolve) => clock.after(5000, () => resolve(clock.now())));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(firedAt).toBeGreaterThanOrEqual(started + 5000);
    clock.dispose();
  });

  it('holds its timers while paused', async () => {
    const clock = new PlaygroundClock({ speed: 1000 });
    let fired = false;
    clock.after(10, () => (fired = true));
    clock.pause();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(false);
    clock.resume();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(true);
    clock.dispose();
  });

  it('refuses a speed that is not positive', () => {
    expect(() => new PlaygroundClock({ speed: -1 })).toThrow('clock speed must be a positive number');
    const clock = new PlaygroundClock();
    expect(() => clock.setSpeed(Number.NaN)).toThrow('clock speed must be a positive number');
    clock.dispose();
  });
});
