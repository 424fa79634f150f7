// @ts-check
/**
 * The widget SDK builds, all from packages/elements (output in packages/elements/dist, served under /sdk/):
 * - mp-widget.js   script tag (IIFE, global `MarketplaceWidget`): every element and the loader, with React
 *                  replaced by preact/compat so the page downloads about a tenth of the bytes.
 * - mp-widget.mjs  the same for `<script type="module">` hosts.
 * - mp-loader.js   the small `MarketplaceWidget.setupMarketplaceWidget(...)` loader alone; it fetches
 *                  mp-widget.js when element mode is first used.
 * - react/index.js ESM for React hosts: React stays an import, so the host's own React renders the elements.
 */
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import alias from '@rollup/plugin-alias';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import esbuild from 'rollup-plugin-esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));
const elements = join(root, 'packages/elements');
const dist = join(elements, 'dist');
const preact = realpathSync(join(elements, 'node_modules/preact'));

/** React's entry points mapped to preact's. Exact matches only, so `react-dom/client` is not read as `react-dom` + path. */
const preactAliases = [
  { find: /^react\/jsx-runtime$/, replacement: join(preact, 'jsx-runtime/dist/jsxRuntime.mjs') },
  { find: /^react\/jsx-dev-runtime$/, replacement: join(preact, 'jsx-runtime/dist/jsxRuntime.mjs') },
  { find: /^react-dom\/client$/, replacement: join(preact, 'compat/client.mjs') },
  { find: /^(react|react-dom)$/, replacement: join(preact, 'compat/dist/compat.mjs') },
];

/** Collapses the whitespace and comments of CSS text; keeps spaces that carry meaning (`a b`, `calc(1px + 2px)`). */
function minifyCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/,\s+/g, ',')
    .replace(/;}/g, '}')
    .trim();
}

/**
 * The components keep their styles as readable template literals named `...Styles`; in the script-tag bundle
 * that whitespace is bytes every visitor downloads.
 */
function minifyStyleLiterals() {
  return {
    name: 'minify-style-literals',
    /** @param {string} code @param {string} id */
    transform(code, id) {
      if (!/[\\/]packages[\\/](ui|elements)[\\/]src[\\/].*\.tsx?$/.test(id)) return null;
      const minified = code.replace(
        /(Styles = `)([^`]*)(`)/g,
        (_, start, css, end) => start + minifyCss(css) + end,
      );
      return minified === code ? null : { code: minified, map: null };
    },
  };
}

/**
 * r2wc imports React's default export for `createElement` alone; preact/compat's default export is an object
 * of its whole API, which would defeat tree-shaking. Give r2wc a default export holding just that function.
 */
const R2WC_REACT = '\0r2wc-react';
function r2wcReactDefault() {
  return {
    name: 'r2wc-react-default',
    /** @param {string} source @param {string | undefined} importer */
    resolveId(source, importer) {
      if (source === 'react' && importer?.includes('@r2wc')) return R2WC_REACT;
      return null;
    },
    /** @param {string} id */
    load(id) {
      if (id !== R2WC_REACT) return null;
      return `import { createElement } from ${JSON.stringify(join(preact, 'compat/dist/compat.mjs'))};\nexport default { createElement };`;
    },
  };
}

const reactModules = /^(react|react-dom)(\/.*)?$/;

/** @param {{ preact: boolean }} options */
function plugins({ preact: usePreact }) {
  return [
    ...(usePreact ? [r2wcReactDefault(), alias({ entries: preactAliases }), minifyStyleLiterals()] : []),
    nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] }),
    replace({
      preventAssignment: true,
      values: usePreact ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
    }),
    esbuild({
      target: 'es2022',
      jsx: 'automatic',
      tsconfig: join(elements, 'tsconfig.json'),
      // React's own development checks are the host's business in the React build.
      minify: false,
    }),
  ];
}

/** @param {{ module: boolean }} options */
function minify({ module }) {
  return terser({
    ecma: 2020,
    // Top-level names of an IIFE are the page's globals (MarketplaceWidget): only an ES module may rename them.
    module,
    toplevel: module,
    compress: { passes: 2, pure_getters: true, unsafe_arrows: true, unsafe_methods: true },
    format: { comments: false },
  });
}

/** @type {import('rollup').RollupOptions[]} */
export default [
  {
    input: join(elements, 'src/mp-widget.entry.ts'),
    plugins: plugins({ preact: true }),
    output: [
      {
        file: join(dist, 'mp-widget.js'),
        format: 'iife',
        name: 'MarketplaceWidget',
        plugins: [minify({ module: false })],
      },
      { file: join(dist, 'mp-widget.mjs'), format: 'es', plugins: [minify({ module: true })] },
    ],
  },
  {
    input: join(elements, 'src/loader/loader.entry.ts'),
    plugins: plugins({ preact: true }),
    output: {
      file: join(dist, 'mp-loader.js'),
      format: 'iife',
      name: 'MarketplaceWidget',
      plugins: [minify({ module: false })],
    },
  },
  {
    input: join(elements, 'src/index.ts'),
    plugins: plugins({ preact: false }),
    external: (id) => reactModules.test(id),
    output: { dir: join(dist, 'react'), format: 'es', entryFileNames: 'index.js' },
  },
];
