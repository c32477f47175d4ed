// The static site: index.html (the page, src/ui/main.tsx) and the Service Worker (sw.js at the
// root of the base URL, so its scope covers the whole site). The base URL comes from KP_BASE
// (default `/`) so the same source builds for a sub-path such as a project page.
import { defineConfig, type Plugin } from 'vite';

const SW_ENTRY = 'src/hosts/sw/service-worker.ts';

/** Lists every emitted file in shell-manifest.json, for the worker's offline precache. */
function shellManifest(): Plugin {
  return {
    name: 'kube-playground-shell-manifest',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => f !== 'sw.js' && !f.endsWith('.map'));
      this.emitFile({ type: 'asset', fileName: 'shell-manifest.json', source: JSON.stringify(files.sort()) });
    },
  };
}

export default defineConfig(() => ({
  base: process.env.KP_BASE ?? '/',
  define: {
    __KP_BUILD_ID__: JSON.stringify(process.env.KP_BUILD_ID ?? `${Date.now().toString(36)}`),
    // The benchmarks' floors (`__playground/bench/...`) are built into the worker only for
    // bench runs (KP_BENCH=1); the production worker carries none of that code.
    __KP_BENCH__: JSON.stringify(process.env.KP_BENCH === '1'),
  },
  oxc: { jsx: { runtime: 'automatic' as const, importSource: 'react' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Two chunks are large by design and never in the first view: the worker carries the whole API
    // core (~1 MB, ~235 kB gzipped), and Monaco (~3.4 MB) loads only when an editor opens. The
    // limit sits above both, so the warning still fires if the page's own entry chunk balloons.
    chunkSizeWarningLimit: 4000,
    rollupOptions: {
      onwarn(warning, warn) {
        // TanStack Query marks its hooks "use client" for React Server Components; this is a
        // client-only app, so dropping the directive when bundling changes nothing.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use client"')) return;
        warn(warning);
      },
      input: { index: 'index.html', sw: SW_ENTRY },
      output: {
        // The worker needs a stable, unhashed URL; everything else is content-hashed.
        entryFileNames: (chunk: { name: string }) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  plugins: [shellManifest()],
}));
