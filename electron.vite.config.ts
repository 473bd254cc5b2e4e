import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import pkg from './package.json' with { type: 'json' };

export default defineConfig({
  main: {
    // The browser host and the CLI learn the app's version at build time.
    define: { __STEPWISE_VERSION__: JSON.stringify(pkg.version) },
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/electron/start.ts'),
          host: resolve('src/main/host/start.ts'),
          cli: resolve('src/main/cli/main.ts'),
          mcp: resolve('src/main/cli/mcpMain.ts'),
          // Migrations in a worker thread while the page says "Updating your data…".
          migrate: resolve('src/main/core/db/migrateWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require packages: bundle everything it uses.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    build: {
      outDir: 'out/renderer',
      minify: process.env.STEPWISE_PROFILE_BUILD ? false : true,
      // Fonts (KaTeX's) stay files: the CSP allows fonts from 'self', not data: URLs.
      assetsInlineLimit: (file: string) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
      rollupOptions: { input: resolve('src/renderer/index.html') },
    },
    plugins: [react(), devServerSocket()],
  },
});

/**
 * The page's own CSP allows no WebSocket at all (the desktop app needs none, and the
 * browser host replaces this policy with one naming its own socket). Only `npm run dev`
 * adds the dev server's, for hot reload.
 */
function devServerSocket(): Plugin {
  return {
    name: 'stepwise-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace("connect-src 'self';", "connect-src 'self' ws://localhost:* ws://127.0.0.1:*;"),
  };
}
