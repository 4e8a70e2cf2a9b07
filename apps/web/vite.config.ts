import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const src = (file: string) => path.resolve(import.meta.dirname, 'src', file);
/** Rolldown's own helpers, which every chunk may use. */
const ROLLDOWN_RUNTIME = '\0rolldown/runtime.js';
/** React's packages: the chunk main.tsx evaluates first, after its own. */
const REACT = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;

/**
 * The first screen's code, in the chunks main.tsx evaluates one after another (each a task of its own), in order:
 * 'index' (main.tsx and what it imports: the first screen's data request), 'react' (React and its DOM renderer),
 * 'app' (start.tsx: the router, the query client's React side, the layout) and 'panel-list' (the list screen, with
 * dnd-kit and the virtualiser). Each holds what its module imports statically and no earlier chunk has; the lazily
 * loaded screens import what they share from these. Rolldown would otherwise split what they share into several
 * common chunks, each one more request and each compressed on its own.
 */
const FIRST_SCREEN_CHUNKS = [
  { name: 'index', root: src('main.tsx') },
  { name: 'react', root: null },
  { name: 'app', root: src('app/start.tsx') },
  { name: 'panel-list', root: src('app/routes/panel-list-route.tsx') },
] as const;

/**
 * The viewer, the screen opened most after the list, in one chunk with everything it imports statically that the
 * first screen has not: Rolldown would otherwise split what it shares with other lazy screens (the subscription
 * dialog, modals, small helpers) into a dozen small chunks, and its first paint waits for all of them, each a round
 * trip on a phone's network. Screens sharing one of them load this chunk instead. Not fetched with the first screen.
 */
const VIEWER_CHUNK = { name: 'viewer-route', root: src('app/routes/viewer-route.tsx') } as const;

/**
 * Modules the walk below reaches from the first screen only through a package's index, which re-exports them, but
 * which only lazily loaded screens use: useInfiniteQuery (/auditoria). Left out of the first screen's chunks, they go
 * with the screens that use them.
 */
const LAZY_ONLY =
  /[\\/]node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/].*[\\/](useInfiniteQuery|infiniteQueryObserver)\.js$/;

/** Chunks compiled eagerly (see postBanner below). */
const EAGER_CHUNKS = new Set(['react', 'app', 'powerbi']);

/** Module id → its first-screen chunk; worked out once per build from the module graph (reset for the next one). */
let chunkOf: Map<string, string> | null = null;

function firstScreenChunks(getModuleInfo: (id: string) => { importedIds: readonly string[] } | null) {
  const chunks = new Map<string, string>([[ROLLDOWN_RUNTIME, 'index']]);
  for (const { name, root } of [...FIRST_SCREEN_CHUNKS, VIEWER_CHUNK]) {
    if (!root) continue;
    const pending = [root];
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      if (chunks.has(id) || LAZY_ONLY.test(id)) continue;
      chunks.set(id, name !== 'index' && REACT.test(id) ? 'react' : name);
      pending.push(...(getModuleInfo(id)?.importedIds ?? []));
    }
  }
  return chunks;
}

/**
 * index.html fetches every first-screen chunk at once (<link rel="modulepreload">: fetched and compiled, not
 * evaluated), so that main.tsx's one-at-a-time evaluation never waits on the network.
 */
const firstScreen: Plugin = {
  name: 'paineis:first-screen-chunks',
  buildStart() {
    chunkOf = null;
  },
  transformIndexHtml: {
    order: 'post',
    handler(_html, { bundle }) {
      if (!bundle) return [];
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk' && !file.isEntry);
      return FIRST_SCREEN_CHUNKS.flatMap(({ name }) => chunks.filter((chunk) => chunk.name === name)).map((chunk) => ({
        tag: 'link',
        attrs: { rel: 'modulepreload', crossorigin: true, href: `/${chunk.fileName}` },
        injectTo: 'head' as const,
      }));
    },
  },
};

/**
 * The web app takes only types and the contract's zod-free modules (constants.ts, text.ts) from @paineis/contract: zod
 * and the schemas are the API's, and would add ~25 kB gzip to the first screen. Type imports are erased before this.
 */
const noZodInTheBrowser: Plugin = {
  name: 'paineis:no-zod-in-the-browser',
  apply: 'build',
  // Before Vite's own resolver, which would otherwise resolve it first.
  enforce: 'pre',
  resolveId(source, importer) {
    if (source === 'zod' || source.startsWith('zod/')) {
      this.error(
        `o app web não deve carregar o zod (importado por ${importer ?? '?'}): importe do contrato só tipos ou módulos sem zod, como @paineis/contract/constants`,
      );
    }
  },
};

export default defineConfig({
  plugins: [react(), firstScreen, noZodInTheBrowser],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3's sources use @import and Sass's global functions, which Dart Sass reports as deprecated
        // on every build: nothing to act on here until Bootstrap moves to the module system.
        quietDeps: true,
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
      },
    },
  },
  build: {
    // Every browser the app supports has <link rel="modulepreload">: no polyfill in the entry chunk.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Chromium compiles every function of a file that starts with this comment eagerly, on the thread that
        // streams it in, instead of on the main thread when first called: nearly all of React's DOM renderer and of
        // powerbi-client runs as soon as they load. After minification, which would drop it.
        postBanner: (chunk) => (EAGER_CHUNKS.has(chunk.name) ? '//# allFunctionsCalledOnLoad' : ''),
        codeSplitting: {
          // Each chunk takes only the modules named for it: by default a group also takes what they import, and
          // 'app' would take React. Nothing circular can come of it, each chunk importing only from earlier ones.
          includeDependenciesRecursively: false,
          groups: [
            {
              debugName: 'first-screen',
              name(moduleId, ctx) {
                chunkOf ??= firstScreenChunks((id) => ctx.getModuleInfo(id));
                return chunkOf.get(moduleId) ?? null;
              },
            },
          ],
        },
      },
    },
  },
});
