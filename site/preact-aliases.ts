import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

/** A module of Preact's, by its file: found from the site, whichever package (the `ui` one) imports React. */
function preactFile(specifier: string): string {
  return fileURLToPath(import.meta.resolve(specifier));
}

/**
 * The site runs on Preact's React emulation (preact/compat) rather than React DOM: the same components and
 * React Router, for about 60 KB gzip less on every page's first load (issue 21). Exact names only, so
 * `react-dom/client` is not read as `react-dom` followed by `/client`. Used by the browser build, the server
 * render and the site's tests alike, so the tests run what ships.
 */
export const preactAliases: Alias[] = [
  { find: /^react$/, replacement: preactFile('preact/compat') },
  { find: /^react\/jsx-runtime$/, replacement: preactFile('preact/compat/jsx-runtime') },
  { find: /^react\/jsx-dev-runtime$/, replacement: preactFile('preact/compat/jsx-dev-runtime') },
  { find: /^react-dom$/, replacement: preactFile('preact/compat') },
  { find: /^react-dom\/client$/, replacement: preactFile('preact/compat/client') },
  { find: /^react-dom\/server$/, replacement: preactFile('preact/compat/server') },
  { find: /^react-dom\/test-utils$/, replacement: preactFile('preact/test-utils') },
];
