import { describe, expect, it } from 'vitest';
import { RealClock, VirtualClock, rfc3339Seconds } from './clock';

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
