import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importCycles, layeringViolations, readImportGraph } from './layering';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const LAYERS = ['core/meta/', 'core/registry/', 'core/server/'];

describe('the layering rule itself', () => {
  it('accepts imports that run down or stay in a layer', () => {
    const graph = new Map([
      ['core/server/a.ts', ['core/registry/b.ts', 'core/meta/c.ts', 'core/server/d.ts']],
      ['core/registry/b.ts', ['core/meta/c.ts']],
      ['core/meta/c.ts', []],
      ['core/server/d.ts', []],
    ]);
    expect(layeringViolations(graph, LAYERS)).toEqual([]);
  });

  it('fails on an upward import', () => {
    const graph = new Map([
      ['core/meta/status.ts', ['core/registry/store.ts']],
      ['core/registry/store.ts', []],
    ]);
    expect(layeringViolations(graph, LAYERS)).toEqual([
      { kind: 'upward', text: 'core/meta/status.ts imports core/registry/store.ts (core/meta/ is below core/registry/)' },
    ]);
  });

  it('fails on a file in no layer', () => {
    expect(layeringViolations(new Map([['core/elsewhere/x.ts', []]]), LAYERS)).toEqual([{ kind: 'unplaced', text: 'core/elsewhere/x.ts is in no layer' }]);
  });

  it('counts a type-only import for the layers but not for cycles', () => {
    const all = new Map([
      ['core/registry/a.ts', ['core/registry/b.ts']],
      ['core/registry/b.ts', ['core/registry/a.ts']],
    ]);
    const runtime = new Map([
      ['core/registry/a.ts', ['core/registry/b.ts']],
      ['core/registry/b.ts', []],
    ]);
    expect(layeringViolations(all, LAYERS, runtime)).toEqual([]);
    expect(layeringViolations(new Map([['core/meta/a.ts', ['core/server/b.ts']], ['core/server/b.ts', []]]), LAYERS, new Map()).map((v) => v.kind)).toEqual(['upward']);
  });

  it('reads which imports are type-only', () => {
    const { all, runtime } = readImportGraph(SRC);
    // registry/context.ts names its Catalog only as a type.
    expect(all.get('core/registry/context.ts')).toContain('core/registry/catalog.ts');
    expect(runtime.get('core/registry/context.ts') ?? []).not.toContain('core/registry/catalog.ts');
    expect(runtime.get('core/registry/store.ts')).toContain('core/registry/store-create.ts');
  });

  it('fails on a cycle, even inside one layer', () => {
    const graph = new Map([
      ['core/registry/a.ts', ['core/registry/b.ts']],
      ['core/registry/b.ts', ['core/registry/c.ts']],
      ['core/registry/c.ts', ['core/registry/a.ts']],
      ['core/registry/d.ts', ['core/registry/a.ts']],
    ]);
    expect(importCycles(graph)).toEqual([['core/registry/a.ts', 'core/registry/b.ts', 'core/registry/c.ts', 'core/registry/a.ts']]);
    expect(layeringViolations(graph, LAYERS).map((v) => v.kind)).toEqual(['cycle']);
  });
});

describe('src/', () => {
  it('imports only downward, with no run-time cycles', () => {
    const { all, runtime } = readImportGraph(SRC);
    expect(all.size).toBeGreaterThan(300);
    expect(layeringViolations(all, undefined, runtime).map((v) => `${v.kind}: ${v.text}`)).toEqual([]);
  });
});
