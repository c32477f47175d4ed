// The dependency rule of src/ (decision 0040): folders are layers and a production file imports
// only from its own layer or the ones below it, and no production files import each other in a
// cycle at run time. Type-only imports count for the layers but not for cycles: types that refer
// to each other (a store context naming its catalog, whose resources name the context's hooks)
// are erased before anything runs. Tests may import from any layer (a test of the store uses the
// whole-API harness).
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
  'core/flowcontrol/',
  'core/handlers/',
  'core/controllers/',
  'core/server/',
  'core/api.ts',
  'core/testing/',
  'backends/',
  'hosts/',
  'ui/',
];

/** Files outside the rule: ambient declarations and generated facts. */
const IGNORED = [/^core\/globals\.d\.ts$/];

/** File → the files it imports; `runtime` leaves out the type-only imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;
export interface SourceGraph {
  all: ImportGraph;
  runtime: ImportGraph;
}

export interface Violation {
  kind: 'upward' | 'unplaced' | 'cycle';
  text: string;
}

export function layerOf(file: string, layers: readonly string[] = LAYERS): number {
  return layers.findIndex((l) => file === l || (l.endsWith('/') && file.startsWith(l)));
}

/**
 * Every upward import, every unplaced file and every run-time import cycle among production
 * files (`runtime` defaults to every import).
 */
export function layeringViolations(graph: ImportGraph, layers: readonly string[] = LAYERS, runtime: ImportGraph = graph): Violation[] {
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
  for (const cycle of importCycles(runtime)) out.push({ kind: 'cycle', text: cycle.join(' -> ') });
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

/** An import or re-export statement (group 1: `type` when type-only) or a dynamic import, of a relative path (group 2). */
const IMPORT = /(?:\b(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]*?\s+from\s+)?|\bimport\s*\(\s*)['"](\.\.?\/[^'"]+)['"]/g;

/** The import graphs of src/'s production files, paths relative to src/. */
export function readImportGraph(srcDir: string): SourceGraph {
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
  const all = new Map<string, string[]>();
  const runtime = new Map<string, string[]>();
  for (const file of files) {
    const from = rel(file);
    if (IGNORED.some((re) => re.test(from))) continue;
    const targets = new Set<string>();
    const runtimeTargets = new Set<string>();
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = path.resolve(path.dirname(file), m[2]!);
      const hit = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((c) => fs.existsSync(c) && fs.statSync(c).isFile());
      if (!hit || !hit.startsWith(srcDir + path.sep) || !/\.tsx?$/.test(hit)) continue;
      targets.add(rel(hit));
      if (!m[1]) runtimeTargets.add(rel(hit));
    }
    all.set(from, [...targets].sort());
    runtime.set(from, [...runtimeTargets].sort());
  }
  return { all, runtime };
}
