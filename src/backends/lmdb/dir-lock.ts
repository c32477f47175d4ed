// One process per storage directory. LMDB itself lets several processes share an environment,
// but the MVCC store above it keeps the key index and the revision counter in memory: two hosts
// over the same files would hand out the same revisions. So the first host writes its pid into
// a lock file and a second one is refused while that process is alive. A lock left by a process
// that died (kill -9) is taken over: its pid no longer answers.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'host.lock';

export interface DirLock {
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDirectory(dir: string): DirLock {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(path, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new Error(`${dir} is in use by process ${owner} (another kube-playground host); stop it or use another --data-dir`);
      }
      // Left behind by a process that is gone (or by this one): take it over.
      unlinkSync(path);
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        try {
          if (Number(readFileSync(path, 'utf8').trim()) === process.pid) unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      },
    };
  }
  throw new Error(`cannot lock ${dir}: another process keeps taking ${LOCK_FILE}`);
}
