import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * React Router's production build: its package exports only its development build (with dev-only warnings and
 * checks), and leaves choosing the production one to its framework's Vite plugin, which the site does not use.
 */
const reactRouterProduction = fileURLToPath(
  new URL('../production/index.mjs', import.meta.resolve('react-router')),
);

export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve:
    command === 'build' ? { alias: [{ find: /^react-router$/, replacement: reactRouterProduction }] } : {},
  // A build compiles JSX for React's production runtime, whatever NODE_ENV it runs under (test runners set
  // NODE_ENV=test): the server render bundles React's production build (below), whose jsx-dev-runtime draws
  // nothing. A browser bundle built under NODE_ENV=test carries React's development build, which takes both.
  oxc: command === 'build' ? { jsx: { development: false } } : undefined,
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
      // React, React DOM (its server renderer) and React Router are bundled, in their production builds: one
      // copy of React shared by the renderer, the router and the components, as fast as it gets whatever
      // NODE_ENV the server runs with (tests run it with NODE_ENV=test).
      resolve: { noExternal: ['react', 'react-dom', 'react-router'] },
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
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
}));
