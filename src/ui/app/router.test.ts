// The one-router rule, checked on the sources: only app/router.ts changes the address.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('router', () => {
  it('is the only code that changes the address', () => {
    const ui = join(__dirname, '..');
    const writers = sources(ui)
      .filter((f) => /location\.hash\s*=[^=]|location\.replace\(|history\.(replaceState|pushState)\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ui, f).split('\\').join('/'));
    expect(writers).toEqual(['app/router.ts']);
  });
});
