import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { preactAliases } from './preact-aliases.ts';

/**
 * The ES module builds of Testing Library and React Router: Node would load their CommonJS ones (which the test
 * run takes) with React itself; these go through Vite, so their imports of React take the aliases too.
 */
const testingLibraryModule = fileURLToPath(
  new URL('./@testing-library/react.esm.js', import.meta.resolve('@testing-library/react')),
);
const reactRouterModule = fileURLToPath(new URL('./index.mjs', import.meta.resolve('react-router')));

export default defineProject({
  plugins: [react()],
  // The tests run on Preact, as the site ships (preact-aliases.ts).
  resolve: {
    alias: [
      ...preactAliases,
      { find: /^@testing-library\/react$/, replacement: testingLibraryModule },
      { find: /^react-router$/, replacement: reactRouterModule },
    ],
  },
  test: {
    name: 'site',
    environment: 'happy-dom',
    environmentOptions: { happyDOM: { url: 'http://localhost:8080/' } },
    include: ['src/**/*.test.{ts,tsx}'],
    server: { deps: { inline: ['react-router', '@testing-library/react'] } },
  },
});
