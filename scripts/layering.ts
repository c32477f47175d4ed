// The dependency rule of src/ (decision 0040): folders are layers and a production file imports
// only from its own layer or the ones below it, and no production files import each other in a
// cycle. Tests may import from any layer (a test of the store uses the whole-API harness).
// The rule is a pure function over an import graph, so its own test can show it failing.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The layers, bottom first. A file's layer is the first entry that is a prefix of its path
 * (relative to src/); a file no entry names breaks the rule too, so a new folder must be placed.
 */
export const LAYERS: readonly string[] = [
  'core/meta/',
  'core/schema/',
  'core/codec/',
  'core/storage/',
  'core/versions/',
  'core/fieldmanager/',
  'core/validation/',
  'core/patch/',
  'core/selectors/',
  'core/registry/',
  'core/auth/',
  'core/crd/',
  'core/kinds/',
  'core/admission/',
  'core/controllers/',
  'core/flowcontrol/',
  'core/handlers/',
  'core/server/',
  'core/api.ts',
  'core/testing/',
  'backends/',
  'hosts/',
  'ui/',
];

/** Files outside the rule: ambient declarations and generated facts. */
const IGNORED = [/^core\/globals\.d\.ts$/];

export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export interface Violation {
  kind: 'upward' | 'unplaced' | 'cycle';
  text: string;
}

export function layerOf(file: string, layers: readonly string[] = LAYERS): number {
  return layers.findIndex((l) => file === l || (l.endsWith('/') && file.startsWith(l)));
}

/** Every upward import, every unplaced file and every import cycle among production files. */
export function layeringViolations(graph: ImportGraph, layers: readonly string[] = LAYERS): Violation[] {
  const out: Violation[] = [];
  for (const [from, targets] of graph) {
    const a = layerOf(from, layers);
    if (a < 0) {
      out.push({ kind: 'unplaced', text: `${from} is in no layer` });
      continue;
    }
    for (const to of targets) {
      const b = layerOf(to, layers);
      if (b > a) out.push({ kind: 'upward', text: `${from} imports ${to} (${layers[a]} is below ${layers[b]})` });
    }
  }
  for (const cycle of importCycles(graph)) out.push({ kind: 'cycle', text: cycle.join(' -> ') });
  return out;
}

/** Strongly connected components of more than one file (Tarjan), each as a closed path. */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (;;) {
      const w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) cycles.push([...component.sort(), component[0]]);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return cycles;
}

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.\.?\/[^'"]+)['"]/g;

/** The import graph of src/'s production files, paths relative to src/. */
export function readImportGraph(srcDir: string): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) files.push(full);
    }
  };
  walk(srcDir);
  const rel = (f: string): string => path.relative(srcDir, f).split(path.sep).join('/');
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const from = rel(file);
    if (IGNORED.some((re) => re.test(from))) continue;
    const targets = new Set<string>();
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = path.resolve(path.dirname(file), m[1]);
      const hit = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (hit && hit.startsWith(srcDir + path.sep) && /\.tsx?$/.test(hit)) targets.add(rel(hit));
    }
    graph.set(from, [...targets].sort());
  }
  return graph;
}
