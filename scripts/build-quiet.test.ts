import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// A newcomer's `npm start` builds the site first: that build must print no warnings, so a real
// one is never lost in noise. Only the known-harmless ones are silenced (see vite.config.ts).
it('vite build prints no warnings', () => {
  const out = mkdtempSync(join(tmpdir(), 'kp-build-'));
  try {
    const r = spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', out, '--emptyOutDir'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', KP_BENCH: '' },
    });
    const text = `${r.stdout}\n${r.stderr}`;
    expect(r.status, text).toBe(0);
    expect(text).toContain('built in');
    expect(text).not.toMatch(/MODULE_LEVEL_DIRECTIVE|\(!\)|warning/i);
    // The benchmarks' floor endpoints are built only into bench builds (KP_BENCH=1).
    const worker = readFileSync(join(out, 'sw.js'), 'utf8');
    expect(worker).toContain('__playground');
    expect(worker).not.toContain('kube-playground-bench');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 120_000);
