// The UI benchmarks in headless Chromium against the static build: warm page load to interactive,
// the first view's initial JS (gzip, Monaco excluded), a burst of 1,000 watch events (React commits
// per animation frame) and scrolling a 1,000-row list (rendered rows, frame times). Prints numbers
// and writes its own section of bench/RESULTS.md; nothing here asserts on timing.
//   npx tsx bench/browser/ui-run.ts        (bench/browser/run.ts also calls runUiBenchmarks)
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAndServe, launchBrowser, type Site } from '../../e2e/browser/harness';
import { REPO_ROOT } from '../../e2e/harness';
import { measureInitialJs } from './ui-bundle';
import { measureBurst } from './ui-burst';
import { measureWarmLoad } from './ui-load';
import { measureTeaching } from './ui-teaching';

interface UiRow {
  name: string;
  value: string;
  target: string;
  ok: boolean;
}

const ms = (n: number) => `${Math.round(n)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

export async function runUiBenchmarks(site: Site): Promise<UiRow[]> {
  const browser = await launchBrowser();
  try {
    const load = await measureWarmLoad(browser, site.url);
    const bundle = await measureInitialJs(site.dir, load.requests);
    const burst = await measureBurst(browser, site.url);
    const teaching = await measureTeaching(browser, site.url);
    const rows: UiRow[] = [
      { name: `warm load to interactive (tree + first Table), p50 of ${load.warmMs.length}`, value: `${ms(load.warmP50Ms)} (min ${ms(Math.min(...load.warmMs))}, max ${ms(Math.max(...load.warmMs))}; first load after install ${ms(load.firstMs)})`, target: '≤ 1500 ms', ok: load.warmP50Ms <= 1500 },
      { name: `initial JS of the first view, gzip, Monaco excluded (${[...bundle.html, ...bundle.lazy].map((f) => f.file.replace('assets/', '')).join(', ')})`, value: `${kb(bundle.totalGzip)}${bundle.monaco.length ? `; Monaco fetched: ${bundle.monaco.join(', ')}` : ''}`, target: '≤ 300 kB', ok: bundle.totalGzip <= 300 * 1024 },
      { name: `burst of ${burst.events} watch events: React commits per animation frame (max)`, value: `${burst.maxCommitsPerFrame} (${burst.totalCommits} commits over ${burst.frames} frames, ${burst.framesWithMoreThanOneCommit} frames with > 1, ${burst.framesWithMoreThanOneCommitWhileResizing} of them while the scroll box resized${burst.multiCommitFrameMs.length ? `, lasting ${burst.multiCommitFrameMs.join('/')} ms vs a p50 frame of ${burst.burstFrameP50Ms.toFixed(1)} ms, commits ${burst.multiCommitGapsMs.join('/')} ms apart` : ''}; max DOM update batches per frame ${burst.maxDomBatchesPerFrame}; burst took ${ms(burst.burstMs)})`, target: '≤ 1', ok: burst.maxCommitsPerFrame <= 1 },
      { name: `${burst.rows}-row list: row elements in the DOM while scrolling (max)`, value: String(burst.maxRowElements), target: `bounded (≪ ${burst.rows})`, ok: burst.maxRowElements < 100 },
      { name: `${burst.rows}-row list: frame time while scrolling 150 px per frame`, value: `p50 ${burst.scrollFrameP50Ms.toFixed(1)} ms, p95 ${burst.scrollFrameP95Ms.toFixed(1)} ms, max ${burst.scrollFrameMaxMs.toFixed(1)} ms over ${burst.scrollFrames} frames (idle page: p50 ${burst.idleFrameP50Ms.toFixed(1)} ms, p95 ${burst.idleFrameP95Ms.toFixed(1)} ms)`, target: 'p95 ≤ 33 ms', ok: burst.scrollFrameP95Ms <= 33.4 },
      { name: `warm load to an interactive welcome screen, p50 of ${teaching.welcomeWarmMs.length}`, value: `${ms(teaching.welcomeWarmP50Ms)} (max ${ms(Math.max(...teaching.welcomeWarmMs))})`, target: '≤ 1000 ms', ok: teaching.welcomeWarmP50Ms <= 1000 },
      { name: `inline ownership of a ${teaching.ownershipLines}-line object, from the object's response to every line on screen, p50 of ${teaching.ownershipRenderMs.length}`, value: `${ms(teaching.ownershipRenderP50Ms)} (${teaching.ownershipRenderMs.map((x) => Math.round(x)).join('/')} ms)`, target: '≤ 100 ms', ok: teaching.ownershipRenderP50Ms <= 100 },
      { name: `ownership timeline of ${teaching.timelineRevisions} revisions: frame time while scrubbing one revision per frame`, value: `p50 ${teaching.scrubFrameP50Ms.toFixed(1)} ms, p95 ${teaching.scrubFrameP95Ms.toFixed(1)} ms over ${teaching.scrubFrames} frames`, target: 'p95 ≤ 33 ms', ok: teaching.scrubFrameP95Ms <= 33.4 },
    ];
    console.table(rows.map((r) => ({ benchmark: r.name, value: r.value, target: r.target, ok: r.ok ? 'yes' : 'NO' })));
    await writeUiResults(rows);
    return rows;
  } finally {
    await browser.close();
  }
}

/** Replaces (or appends) the UI section of bench/RESULTS.md, leaving other sections alone. */
async function writeUiResults(rows: UiRow[]): Promise<void> {
  const file = join(REPO_ROOT, 'bench', 'RESULTS.md');
  const existing = await readFile(file, 'utf8').catch(() => '# Benchmark results\n');
  const start = '<!-- ui-bench:start -->';
  const end = '<!-- ui-bench:end -->';
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`;
  const section = [
    start,
    '## Playground UI (static build, headless Chromium)',
    '',
    `Machine: ${machine}. \`npx tsx bench/browser/ui-run.ts\` (also run by \`npm run bench:browser\`).`,
    '',
    '| benchmark | measured | target | ok |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.value} | ${r.target} | ${r.ok ? 'yes' : 'no'} |`),
    '',
    'Interactive = the resource tree rendered from discovery and a data row of the first list’s Table on screen, timed from navigation start; warm = the Service Worker installed and its cache and the HTTP cache filled by an earlier load. Commits are counted through the React devtools hook, bucketed by frame: from the moment one frame’s requestAnimationFrame callbacks start running to the next’s.',
    end,
  ].join('\n');
  const i = existing.indexOf(start);
  const j = existing.indexOf(end);
  const next = i >= 0 && j > i ? existing.slice(0, i) + section + existing.slice(j + end.length) : `${existing.trimEnd()}\n\n${section}\n`;
  await writeFile(file, next);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const site = await buildAndServe('/', { bench: true });
  try {
    await runUiBenchmarks(site);
  } finally {
    await site.close();
  }
}
