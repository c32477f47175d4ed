// Initial JS of the first view, gzip-sized from the build output: the scripts index.html loads
// (entry and modulepreloads) plus every further JS file the page fetched while showing the first
// view, minus Monaco (its loader chunk and what only it imports, which arrive with the first editor).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface BundleReport {
  /** Files index.html references, with gzip sizes in bytes. */
  html: Array<{ file: string; gzip: number }>;
  /** JS files fetched for the first view beyond those (lazy chunks), excluding Monaco. */
  lazy: Array<{ file: string; gzip: number }>;
  /** Monaco chunks the first view fetched anyway (should be none). */
  monaco: string[];
  totalGzip: number;
}

/** Whether a built chunk is Monaco's: its loader, its workers, or code only Monaco's packages contain. */
function isMonacoChunk(file: string, code: string): boolean {
  return /(^|\/)(monaco-loader|editor\.worker)[-.]/.test(file) || code.includes('monaco-editor') || code.includes('vs/editor/');
}

export async function measureInitialJs(siteDir: string, requestedPaths: readonly string[]): Promise<BundleReport> {
  const html = await readFile(join(siteDir, 'index.html'), 'utf8');
  const fromHtml = [...html.matchAll(/(?:src|href)="[^"]*?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const sized = async (file: string) => {
    const code = await readFile(join(siteDir, file));
    return { file, gzip: gzipSync(code, { level: 9 }).length, code: code.toString('utf8') };
  };
  const htmlFiles = await Promise.all([...new Set(fromHtml)].map(sized));
  const extra = [...new Set(requestedPaths.map((p) => /assets\/[^?#]+\.js/.exec(p)?.[0]).filter((f): f is string => Boolean(f) && !fromHtml.includes(f!)))];
  const lazyAll = await Promise.all(extra.map(sized));
  const lazy = lazyAll.filter((f) => !isMonacoChunk(f.file, f.code));
  const strip = ({ file, gzip }: { file: string; gzip: number }) => ({ file, gzip });
  return {
    html: htmlFiles.map(strip),
    lazy: lazy.map(strip),
    monaco: lazyAll.filter((f) => isMonacoChunk(f.file, f.code)).map((f) => f.file),
    totalGzip: [...htmlFiles, ...lazy].reduce((n, f) => n + f.gzip, 0),
  };
}
