// Browser-test plumbing: build the static site with the vite JS API into a temp folder, serve it
// with our static server on 127.0.0.1 (random port), and drive the system Chromium through
// playwright-core (which downloads no browsers).
import { afterAll, beforeAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { REPO_ROOT } from '../harness';
// @ts-expect-error plain ESM script without type declarations
import { startStaticServer } from '../../scripts/serve-static.mjs';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim();
}

export interface Site {
  /** URL of the site root, with the base path and a trailing slash. */
  url: string;
  dir: string;
  close(): Promise<void>;
}

/** Builds the site for `base` and serves it (`isolated`: cross-origin isolated, see serve-static.mjs). */
/** `bench`: a worker with the benchmarks' floor endpoints (`__playground/bench/...`) built in. */
export async function buildAndServe(base = '/', opts: { isolated?: boolean; bench?: boolean } = {}): Promise<Site> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-playground-site-'));
  const before = process.env.KP_BENCH;
  process.env.KP_BENCH = opts.bench ? '1' : '';
  try {
    await build({ root: REPO_ROOT, configFile: join(REPO_ROOT, 'vite.config.ts'), base, logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  } finally {
    if (before === undefined) delete process.env.KP_BENCH;
    else process.env.KP_BENCH = before;
  }
  const server = (await startStaticServer({ dir, base, isolated: opts.isolated })) as { url: string; close(): Promise<void> };
  return {
    url: server.url,
    dir,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

export function launchProfile(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, { executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

export interface ReadyStatus {
  mode: string;
  revision: string;
  storageError: string;
  protocol: number;
}

/** Opens the page and waits until the worker controls it and the API answers. */
export async function openApp(context: BrowserContext, url: string, page?: Page): Promise<{ page: Page; status: ReadyStatus }> {
  const p = page ?? (await context.newPage());
  await p.goto(url);
  const status = await waitReady(p);
  return { page: p, status };
}

export async function waitReady(page: Page): Promise<ReadyStatus> {
  await page.waitForFunction(() => 'kubePlayground' in window);
  return page.evaluate(() => (window as unknown as { kubePlayground: { ready: Promise<ReadyStatus> } }).kubePlayground.ready);
}

/** Stops every Service Worker of the browser, as the browser does to idle workers. */
export async function stopServiceWorkers(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

export interface FetchResult {
  status: number;
  contentType: string;
  body: string;
}

/** A fetch from inside the page (relative to the site root). */
export function pageFetch(page: Page, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<FetchResult> {
  return page.evaluate(
    async ({ path, init }) => {
      const res = await fetch(new URL(path, document.baseURI), init);
      return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
    },
    { path, init },
  );
}

export const json = (r: FetchResult) => JSON.parse(r.body) as { metadata: { resourceVersion: string; name?: string; continue?: string }; items?: Array<{ metadata: { name: string } }>; [k: string]: unknown };

/** Where the UI tests save screenshots for a person to look at. */
export const UI_SHOTS = join(REPO_ROOT, 'test-results', 'ui-screenshots');

export interface UiSession {
  site: Site;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** The built site in a 1280×720 page with clipboard access (tests paste into Monaco). */
export async function openUiSession(): Promise<UiSession> {
  mkdirSync(UI_SHOTS, { recursive: true });
  const site = await buildAndServe('/');
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  const { page } = await openApp(context, site.url);
  return {
    site,
    browser,
    context,
    page,
    async close() {
      await browser.close();
      await site.close();
    },
  };
}

/**
 * One UI session for a test file: opened before its first test, closed after its last. `ready`
 * receives the session (the file keeps the page it drives in its own variable).
 */
export function useUiSession(ready: (session: UiSession) => void, timeoutMs = 120_000): void {
  let session: UiSession | undefined;
  beforeAll(async () => {
    session = await openUiSession();
    ready(session);
  }, timeoutMs);
  afterAll(async () => {
    await session?.close();
  });
}

/**
 * The screenshots a person judges a screen by: 1440×900 and 1024×768, light and dark, saved as
 * `<name>-<w>x<h>-<scheme>.png`; the page returns to the session's 1280×720 light view after.
 */
export async function screenshotViews(page: Page, name: string, opts: { fullPage?: boolean; settleMs?: number } = {}): Promise<void> {
  for (const [w, h] of [[1440, 900], [1024, 768]] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      if (opts.settleMs) await page.waitForTimeout(opts.settleMs);
      await page.screenshot({ path: join(UI_SHOTS, `${name}-${w}x${h}-${scheme}.png`), fullPage: opts.fullPage ?? false });
    }
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
}
