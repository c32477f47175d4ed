// CPU time of Chromium's processes from /proc (Linux), so a throughput row can say where a
// request's CPU goes: the browser process (request routing, and IndexedDB, which Chromium runs
// there) or the renderer (the page and the Service Worker share one). On a 2-core machine the
// 16-in-flight rows are bound by this total, not by one thread.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU milliseconds so far, per Chromium process kind ('browser', 'renderer', 'utility', ...). */
export type ProcessCpu = Map<string, number>;

/** undefined where /proc is not readable (not Linux): the rows then go without the split. */
export function chromiumCpu(): ProcessCpu | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  const out: ProcessCpu = new Map();
  for (const pid of pids) {
    try {
      // Chromium's child processes rewrite their title, so the arguments may be one space-joined string.
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.split(/[\0 ]/, 1)[0]!.includes('chromium')) continue;
      const kind = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
      // Fields after the command name: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
      out.set(kind, (out.get(kind) ?? 0) + ms);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return out;
}

/** after − before per kind (processes that ended in between count from zero: good enough for a trend). */
export function cpuSince(before: ProcessCpu, after: ProcessCpu): ProcessCpu {
  const out: ProcessCpu = new Map();
  for (const [kind, ms] of after) out.set(kind, Math.max(0, ms - (before.get(kind) ?? 0)));
  return out;
}

export function addCpu(into: ProcessCpu, more: ProcessCpu): void {
  for (const [kind, ms] of more) into.set(kind, (into.get(kind) ?? 0) + ms);
}

/** "2.31 ms (browser 0.70, renderer 1.61)" per request, the main kinds only. */
export function formatPerRequest(cpu: ProcessCpu, requests: number): string {
  const per = (ms: number) => (ms / requests).toFixed(2);
  const total = [...cpu.values()].reduce((a, b) => a + b, 0);
  const parts = ['browser', 'renderer'].filter((k) => cpu.has(k)).map((k) => `${k} ${per(cpu.get(k)!)}`);
  return `${per(total)} ms (${parts.join(', ')})`;
}
