// The offline app shell: every file of the build is cached when the worker installs (the list
// comes from shell-manifest.json, written at build time), and page/asset requests go to the
// network first, falling back to the cache when offline. Network first keeps a new deployment's
// page visible at once; hashed asset names keep old and new builds apart in the cache.

/** Caches of this app carry this prefix, so activation can drop those of older builds. */
export const CACHE_PREFIX = 'kube-playground-shell-';

export const SHELL_MANIFEST = 'shell-manifest.json';

export function cacheName(build: string): string {
  return `${CACHE_PREFIX}${build}`;
}

/** Fetches the manifest and caches the base URL, index.html and every listed file. */
export async function precacheShell(baseUrl: string, build: string): Promise<void> {
  const cache = await caches.open(cacheName(build));
  const res = await fetch(new URL(SHELL_MANIFEST, baseUrl), { cache: 'no-store' });
  const files = res.ok ? ((await res.json()) as string[]) : [];
  const urls = [baseUrl, ...files.map((f) => new URL(f, baseUrl).href)];
  await cache.addAll([...new Set(urls)]);
}

/** Deletes shell caches of other builds. */
export async function dropOldShells(build: string): Promise<void> {
  const keep = cacheName(build);
  for (const name of await caches.keys()) {
    if (name.startsWith(CACHE_PREFIX) && name !== keep) await caches.delete(name);
  }
}

/** Network first; on a network failure, the cached copy (navigations fall back to the base page). */
export async function shellResponse(request: Request, baseUrl: string, build: string): Promise<Response> {
  const cache = await caches.open(cacheName(build));
  try {
    const res = await fetch(request);
    if (res.ok && request.method === 'GET' && new URL(request.url).search === '') void cache.put(request, res.clone());
    return res;
  } catch (error) {
    const cached = (await cache.match(request, { ignoreSearch: true })) ?? (request.mode === 'navigate' ? await cache.match(baseUrl) : undefined);
    if (cached) return cached;
    throw error;
  }
}
