#!/usr/bin/env node
// The first step of `npm test` on a fresh Debian machine: the tests need programs that npm cannot
// install (Debian's chromium for the browser tests, etcd-server for the etcd storage tests).
// As root it installs what is missing with apt-get; otherwise it stops with one line that names
// the command to run. Nothing is downloaded from anywhere but Debian's package archive.
import { spawnSync } from 'node:child_process';

/** Program on PATH → the Debian package that provides it. */
export const SYSTEM_DEPS = [
  { program: 'chromium', pkg: 'chromium', why: 'browser tests (Playwright drives Debian chromium)' },
  { program: 'etcd', pkg: 'etcd-server', why: 'storage tests on a real etcd' },
];

export function onPath(program) {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

export function missingDeps(has = onPath) {
  return SYSTEM_DEPS.filter((d) => !has(d.program));
}

export function installCommand(pkgs) {
  return `apt-get update && apt-get install -y ${pkgs.join(' ')}`;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return r.status === 0;
}

function main() {
  const missing = missingDeps();
  if (missing.length === 0) return 0;
  const pkgs = missing.map((d) => d.pkg);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = onPath('apt-get');
  if (!isRoot || !hasApt) {
    const need = missing.map((d) => `${d.program} (${d.why})`).join(', ');
    const how = hasApt ? `sudo sh -c '${installCommand(pkgs)}'` : `install the packages ${pkgs.join(', ')}`;
    console.error(`system-deps: missing ${need}; run: ${how}`);
    return 1;
  }
  console.log(`system-deps: installing ${pkgs.join(', ')} with apt-get`);
  if (!run('apt-get', ['update', '-qq']) || !run('apt-get', ['install', '-y', '-qq', ...pkgs])) {
    console.error(`system-deps: apt-get failed; run: ${installCommand(pkgs)}`);
    return 1;
  }
  const still = missingDeps();
  if (still.length > 0) {
    console.error(`system-deps: still missing ${still.map((d) => d.program).join(', ')} after apt-get`);
    return 1;
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main());
