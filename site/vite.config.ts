import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { preactAliases } from './preact-aliases.ts';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: preactAliases },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server hosts dist/ with a strict CSP: every script must be a file of its own origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    // dist/.vite/manifest.json: the server links a server-rendered page's own chunk and CSS from it.
    manifest: true,
  },
  environments: {
    // The server's render of the public pages (src/entry-server.tsx), loaded by site-hosting. DOMPurify and
    // jsdom stay imports, found in site/node_modules at run time.
    ssr: {
      // React Router, Preact and Preact's renderer are bundled: React Router's imports of React take the
      // aliases above (as an import left to Node it would load React itself), and the renderer and the
      // components share the one copy of Preact (its hooks are per copy).
      resolve: { noExternal: ['react-router', 'preact', 'preact-render-to-string'] },
      build: {
        outDir: 'dist/server',
        manifest: false,
        copyPublicDir: false,
        // One file: the server loads it again by a new address after a rebuild, and a page chunk importing
        // the entry by its plain address would make a second copy of the site's modules (two React contexts).
        rollupOptions: { input: 'src/entry-server.tsx', output: { codeSplitting: false } },
      },
    },
  },
  builder: {
    // `vite build` builds the browser's files, then the server's render beside them (never served:
    // site-hosting serves dist/assets and the files at the top of dist only).
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.ssr!);
    },
  },
});
