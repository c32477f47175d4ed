import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { installCommand, missingDeps, SYSTEM_DEPS } from './system-deps.mjs';

describe('system-deps', () => {
  it('lists exactly the programs the checker does not find, with their Debian packages', () => {
    const missing = missingDeps((p: string) => p !== 'etcd');
    expect(missing.map((d: { pkg: string }) => d.pkg)).toEqual(['etcd-server']);
    expect(missingDeps(() => true)).toEqual([]);
    expect(missingDeps(() => false).length).toBe(SYSTEM_DEPS.length);
  });

  it('names one apt-get command for everything missing', () => {
    expect(installCommand(['chromium', 'etcd-server'])).toBe('apt-get update && apt-get install -y chromium etcd-server');
  });

  it('stops with one clear line when a program is missing and it may not install', () => {
    // PATH without chromium or etcd, and a non-root id faked by running as the script with no apt-get on PATH.
    const r = spawnSync(process.execPath, ['scripts/system-deps.mjs'], { encoding: 'utf8', env: { PATH: '/nonexistent' } });
    expect(r.status).toBe(1);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^system-deps: missing chromium .*etcd .*; run: install the packages chromium, etcd-server$/);
  });
});
