// A Node host child process with extra flags (--data-dir, --etcd-servers), that a test can kill
// with SIGKILL and start again over the same data. Talks plain HTTP with fetch.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './harness';

const READY_LINE = /^kube-playground API listening on (http:\/\/\S+) \(kubeconfig: (.+)\)$/m;

export interface HostProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL, and wait until the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 5 s. */
  stop(): Promise<void>;
}

export async function startHost(dir: string, flags: string[]): Promise<HostProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/hosts/node/main.ts', '--port', '0', '--kubeconfig', join(dir, 'kubeconfig'), ...flags], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail('did not print its ready line within 30 s'), 30_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`host ${why}\nstdout: ${out}\nstderr: ${err}`));
    };
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err = (err + c).slice(-4000)));
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      const m = READY_LINE.exec(out);
      if (m) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        resolve(m[1]!);
      }
    });
    child.once('exit', (code) => fail(`exited early with code ${code}`));
  });
  const ended = (signal: NodeJS.Signals, forceAfterMs?: number) => async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    const force = forceAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
    await exited;
    if (force) clearTimeout(force);
  };
  return { url, child, kill: ended('SIGKILL'), stop: ended('SIGTERM', 5000) };
}

export interface JsonAnswer {
  status: number;
  body: Record<string, any>;
}

export async function request(url: string, method: string, body?: unknown): Promise<JsonAnswer> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, any> };
}

/**
 * Reads a watch stream until `until` accepts an event (or the stream ends, or timeoutMs passes).
 * Returns the events in order, or the HTTP status when the watch itself was refused.
 */
export async function readWatch(
  url: string,
  until: (ev: { type: string; object: Record<string, any> }) => boolean,
  timeoutMs = 15_000,
): Promise<{ status: number; events: Array<{ type: string; object: Record<string, any> }> }> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const events: Array<{ type: string; object: Record<string, any> }> = [];
  try {
    const res = await fetch(url, { signal: abort.signal });
    if (res.status !== 200) return { status: res.status, events };
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line.trim()) continue;
        const ev = JSON.parse(line) as { type: string; object: Record<string, any> };
        events.push(ev);
        if (until(ev)) {
          abort.abort();
          return { status: 200, events };
        }
      }
    }
    return { status: 200, events };
  } catch (error) {
    if (abort.signal.aborted) return { status: 200, events };
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
