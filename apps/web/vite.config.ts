import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const ENTRY = path.resolve(import.meta.dirname, 'src/main.tsx');
/** Rolldown's own helpers, which every chunk may use. */
const ROLLDOWN_RUNTIME = '\0rolldown/runtime.js';

/**
 * The modules main.tsx imports statically, directly or not: what the first screen (the panel list) needs. Worked out
 * once per build, from the module graph; reset by the plugin below for the next build (watch mode).
 */
let firstScreen: Set<string> | null = null;
const resetFirstScreen: Plugin = {
  name: 'paineis:first-screen-chunk',
  buildStart() {
    firstScreen = null;
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
  plugins: [react(), resetFirstScreen, noZodInTheBrowser],
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
        codeSplitting: {
          groups: [
            {
              // Everything the first screen needs is one chunk, index-*.js: Rolldown would otherwise split what the
              // lazily loaded screens share with it (React, the router, react-bootstrap...) into several common
              // chunks, each one more request for the first screen and each compressed on its own (3 kB gzip more
              // in all). The lazy screens import what they share from it.
              name(moduleId, ctx) {
                if (!firstScreen) {
                  firstScreen = new Set([ROLLDOWN_RUNTIME]);
                  const pending = [ENTRY];
                  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
                    if (firstScreen.has(id)) continue;
                    firstScreen.add(id);
                    pending.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
                  }
                }
                return firstScreen.has(moduleId) ? 'index' : null;
              },
            },
          ],
        },
      },
    },
  },
});
