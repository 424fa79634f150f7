// @ts-check
/**
 * The widget SDK builds, all from packages/elements (output in packages/elements/dist, served under /sdk/):
 * - mp-widget.js   script tag (IIFE, global `MarketplaceWidget`): every element and the loader in one file,
 *                  with React replaced by preact/compat underneath r2wc, so a third-party page downloads about
 *                  a tenth of the bytes.
 * - mp-widget.mjs  the same for `<script type="module">` hosts.
 * - chunks/        the same elements split into ES modules, content-hashed names: one chunk per element, and
 *                  the code they share (preact/compat, r2wc, protocol, common ui) in `shared` and `shared-some`;
 *                  sdk-chunks.json says which files each element needs.
 * - mp-loader.js   script tag (IIFE, global `MarketplaceWidget`): `setupMarketplaceWidget(...)` and a watch on
 *                  the page for the five tags; it imports the chunks of only the elements the page uses.
 * - react/index.js ESM for React hosts, compiled by @rollup/plugin-typescript with its type declarations
 *                  (react/index.d.ts): React stays an import, so the host's own React renders the elements.
 */
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import alias from '@rollup/plugin-alias';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import terser from '@rollup/plugin-terser';
import { rollup } from 'rollup';
import typescript from '@rollup/plugin-typescript';

const root = fileURLToPath(new URL('.', import.meta.url));
const elements = join(root, 'packages/elements');
const dist = join(elements, 'dist');
const preact = realpathSync(join(elements, 'node_modules/preact'));

/**
 * React's entry points mapped to preact/compat in the script-tag builds: r2wc and the `ui` components render
 * through it as they would through React. Exact matches only, so `react-dom/client` is not read as
 * `react-dom` followed by `/client`.
 */
const preactAliases = [
  { find: /^react\/jsx-runtime$/, replacement: join(preact, 'jsx-runtime/dist/jsxRuntime.mjs') },
  { find: /^react\/jsx-dev-runtime$/, replacement: join(preact, 'jsx-runtime/dist/jsxRuntime.mjs') },
  { find: /^react-dom\/client$/, replacement: join(preact, 'compat/client.mjs') },
  { find: /^(react|react-dom)$/, replacement: join(preact, 'compat/dist/compat.mjs') },
];

/**
 * r2wc imports React's default export for `createElement` alone; preact/compat's default export is an object
 * of its whole API, which would keep all of it in the bundle. r2wc gets a default export holding just that
 * function.
 */
const R2WC_REACT = '\0r2wc-react';
function r2wcReactDefault() {
  return {
    name: 'mp-r2wc-react-default',
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
 * The components keep their styles as readable template literals named `...Styles` (`..._STYLES` in the
 * elements); in the script-tag bundle
 * that whitespace is bytes every visitor downloads.
 */
function minifyStyleLiterals() {
  return {
    name: 'minify-style-literals',
    /** @param {string} code @param {string} id */
    transform(code, id) {
      if (!/[\\/]packages[\\/](ui|elements)[\\/]src[\\/].*\.tsx?$/.test(id)) return null;
      const minified = code.replace(
        /((?:Styles|_STYLES) = `)([^`]*)(`)/g,
        (_, start, css, end) => start + minifyCss(css) + end,
      );
      return minified === code ? null : { code: minified, map: null };
    },
  };
}

const reactModules = /^(react|react-dom)(\/.*)?$/;

/**
 * The workspace packages the elements import from, through their `src/index.ts`. Their modules only declare
 * (no module runs code on import that another needs), so a module whose exports nobody uses is left out:
 * without this, importing one component from `@marketplace/ui` puts every component into the chunk shared by
 * all elements.
 */
const declarationOnlyPackages =
  /[\\/]packages[\\/](core|protocol|ide-bridge|ui|api-contract|api-client)[\\/]src[\\/]/;

/** Finds modules the browser's way, the workspace's TypeScript sources included. */
const resolveSources = () =>
  nodeResolve({ browser: true, extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] });

/**
 * The script-tag builds' plugins: preact/compat for React underneath r2wc, the style literals minified, and the
 * TypeScript sources compiled by @rollup/plugin-typescript (no declarations: those come with the React build).
 */
function plugins() {
  return [
    r2wcReactDefault(),
    alias({ entries: preactAliases }),
    minifyStyleLiterals(),
    resolveSources(),
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    typescript({
      tsconfig: join(elements, 'tsconfig.build.json'),
      declaration: false,
      declarationDir: undefined,
      outDir: undefined,
      // `pnpm typecheck` checks the sources once; each of these builds only compiles them.
      noCheck: true,
    }),
  ];
}

/**
 * The element of each chunk and the function in its `define.ts` that registers it: the loader's five
 * (WIDGET_ELEMENT_NAMES; `pnpm size` fails when the manifest lacks one).
 */
const ELEMENT_DEFINITIONS = {
  'mp-plugin-card': 'definePluginCard',
  'mp-install-button': 'defineInstallButton',
  'mp-ai-button': 'defineAiButton',
  'mp-open-course': 'defineOpenCourse',
  'mp-course-lti': 'defineCourseLti',
};

/** Where the split build says which files each element needs (read by the loader build and `pnpm size`). */
const CHUNK_MANIFEST = 'sdk-chunks.json';

/**
 * One entry module per element, made here rather than kept as files: it registers the element, and tells the
 * elements where the SDK came from (the chunk's own URL, on the marketplace), as mp-widget.entry.ts does.
 */
const ELEMENT_ENTRY = '\0mp-element-entry:';
function elementEntries() {
  return {
    name: 'mp-element-entries',
    /** @param {string} source */
    resolveId(source) {
      return source.startsWith(ELEMENT_ENTRY) ? source : null;
    },
    /** @param {string} id */
    load(id) {
      if (!id.startsWith(ELEMENT_ENTRY)) return null;
      const tag = /** @type {keyof typeof ELEMENT_DEFINITIONS} */ (id.slice(ELEMENT_ENTRY.length));
      const define = ELEMENT_DEFINITIONS[tag];
      return [
        `import { rememberScriptUrl } from ${JSON.stringify(join(elements, 'src/shared/api-base.ts'))};`,
        `import { ${define} } from ${JSON.stringify(join(elements, `src/${tag}/define.ts`))};`,
        'rememberScriptUrl(import.meta.url);',
        `${define}();`,
      ].join('\n');
    },
  };
}

/**
 * The split build's shared code in two chunks, whatever Rollup would make of it (a chunk per combination of
 * elements, ten files today): `shared`, what every element needs (preact/compat, r2wc, the item loading and
 * announcing, protocol, tokens), and `shared-some`, what several elements but not all need (today the four
 * that talk to the IDE: the IDE bridge, toasts, the repository hint). One chunk for both would make the card
 * download the IDE bridge it never uses. Which module goes where is read from a first, natural split of the
 * same input: Rollup's own chunks already follow what each element uses, through the packages' index files.
 * @param {() => import('rollup').RollupOptions} inputOptions the split build's input, with fresh plugins
 */
function twoSharedChunks(inputOptions) {
  /** @type {Map<string, string>} */
  const chunkOfModule = new Map();
  /** @type {import('rollup').Plugin} */
  const plugin = {
    name: 'mp-two-shared-chunks',
    async buildStart() {
      chunkOfModule.clear();
      const probe = await rollup({ ...inputOptions(), onwarn: () => {} });
      const { output } = await probe.generate({ format: 'es' });
      await probe.close();
      const chunks = new Map(
        output.flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file]] : [])),
      );
      const entries = [...chunks.values()].filter((chunk) => chunk.isEntry);
      /** @type {Map<string, number>} how many elements load each chunk */
      const users = new Map();
      for (const entry of entries) {
        const seen = new Set();
        const visit = (/** @type {string} */ fileName) => {
          if (seen.has(fileName)) return;
          seen.add(fileName);
          users.set(fileName, (users.get(fileName) ?? 0) + 1);
          for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
        };
        visit(entry.fileName);
      }
      for (const chunk of chunks.values()) {
        let name = users.get(chunk.fileName) === entries.length ? 'shared' : 'shared-some';
        if (chunk.isEntry) name = chunk.name;
        // Every module with code is placed, an element's own too: Rollup adds to a manual chunk whatever its
        // modules import that is not placed, and through an index file that would be every component.
        for (const [id, module] of Object.entries(chunk.modules))
          if (module.renderedLength > 0 || id === chunk.facadeModuleId) chunkOfModule.set(id, name);
      }
    },
  };
  /** @type {import('rollup').GetManualChunk} */
  const manualChunks = (id) => chunkOfModule.get(id);
  return { plugin, manualChunks };
}

/** What the chunk builds made, for sdk-chunks.json (the builds of one `rollup -c` run one after another). */
const builtChunks = { embedMessages: '' };

/** Records the file name of the embed messages' chunk. */
function embedMessagesChunk() {
  return {
    name: 'mp-embed-messages-chunk',
    /** @param {unknown} _options @param {import('rollup').OutputBundle} bundle */
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
      if (entry) builtChunks.embedMessages = entry.fileName;
    },
  };
}

/**
 * Writes sdk-chunks.json: for each element, the files (relative to dist) it needs, its own chunk last, and the
 * embed messages' chunk. The loader imports an element's files all at once, so the shared chunks download
 * beside the element's instead of after it.
 */
function chunkManifest() {
  return {
    name: 'mp-chunk-manifest',
    /** @param {unknown} _options @param {import('rollup').OutputBundle} bundle */
    generateBundle(_options, bundle) {
      /** @param {string} fileName @param {Set<string>} seen @returns {string[]} */
      const withImports = (fileName, seen = new Set()) => {
        if (seen.has(fileName)) return [];
        seen.add(fileName);
        const chunk = bundle[fileName];
        if (chunk?.type !== 'chunk') return [];
        return [...chunk.imports.flatMap((imported) => withImports(imported, seen)), fileName];
      };
      /** @type {Record<string, string[]>} */
      const files = {};
      for (const chunk of Object.values(bundle))
        if (chunk.type === 'chunk' && chunk.isEntry) files[chunk.name] = withImports(chunk.fileName);
      const manifest = { elements: files, embedMessages: builtChunks.embedMessages };
      this.emitFile({
        type: 'asset',
        fileName: CHUNK_MANIFEST,
        source: `${JSON.stringify(manifest, null, 2)}\n`,
      });
    },
  };
}

/** The split build's manifest, for the loader: `import chunks from 'virtual:mp-element-chunks'`. */
const CHUNKS_MODULE = 'virtual:mp-element-chunks';
function elementChunksModule() {
  const manifest = join(dist, CHUNK_MANIFEST);
  return {
    name: 'mp-element-chunks',
    /** @param {string} source */
    resolveId(source) {
      return source === CHUNKS_MODULE ? `\0${CHUNKS_MODULE}` : null;
    },
    /** @param {string} id */
    load(id) {
      if (id !== `\0${CHUNKS_MODULE}`) return null;
      this.addWatchFile(manifest);
      const { elements: files, embedMessages } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (!embedMessages) this.error(`${manifest} names no embed messages chunk: build with rollup -c.`);
      return `export default ${JSON.stringify({ elements: files, embedMessages })};`;
    },
  };
}

/** Old hashed chunks would pile up in dist/chunks with every build; each build starts the folder afresh. */
function emptyChunksFolder() {
  return {
    name: 'mp-empty-chunks-folder',
    buildStart() {
      rmSync(join(dist, 'chunks'), { recursive: true, force: true });
    },
  };
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

/**
 * The React build's `index.d.ts`: TypeScript writes the declarations under `types/`, one folder per workspace
 * package the elements import (their sources are compiled into the bundle); this names the elements' own.
 */
function declarationsEntry() {
  return {
    name: 'mp-declarations-entry',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'index.d.ts',
        source: "export * from './types/elements/src/index';\n",
      });
    },
  };
}

/** @type {import('rollup').TreeshakingOptions} */
const treeshake = { moduleSideEffects: (id) => !declarationOnlyPackages.test(id) };

/** The split build's input: one entry per element. A function, so the first pass gets plugins of its own. */
const splitInput = () => ({
  input: Object.fromEntries(Object.keys(ELEMENT_DEFINITIONS).map((tag) => [tag, ELEMENT_ENTRY + tag])),
  plugins: [elementEntries(), ...plugins()],
  treeshake,
  // The entries export nothing: each registers its element when imported.
  preserveEntrySignatures: /** @type {const} */ (false),
});
const sharedChunks = twoSharedChunks(splitInput);

/** @type {import('rollup').RollupOptions[]} */
export default [
  {
    input: join(elements, 'src/mp-widget.entry.ts'),
    plugins: plugins(),
    treeshake,
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
    // mp-loader.js's iframe mode: the protocol's listener and guards, alone.
    input: { 'embed-messages': join(elements, 'src/loader/embed-messages.ts') },
    plugins: [emptyChunksFolder(), ...plugins()],
    treeshake,
    output: {
      dir: dist,
      format: 'es',
      entryFileNames: 'chunks/[name]-[hash].js',
      plugins: [minify({ module: true }), embedMessagesChunk()],
    },
  },
  {
    ...splitInput(),
    plugins: [sharedChunks.plugin, ...splitInput().plugins],
    output: {
      dir: dist,
      format: 'es',
      entryFileNames: 'chunks/[name]-[hash].js',
      chunkFileNames: 'chunks/[name]-[hash].js',
      manualChunks: sharedChunks.manualChunks,
      plugins: [minify({ module: true }), chunkManifest()],
    },
  },
  {
    // After the split build: the loader carries its manifest.
    input: join(elements, 'src/loader/loader.entry.ts'),
    plugins: [elementChunksModule(), ...plugins()],
    treeshake,
    output: {
      file: join(dist, 'mp-loader.js'),
      format: 'iife',
      name: 'MarketplaceWidget',
      plugins: [minify({ module: false })],
    },
  },
  {
    input: join(elements, 'src/index.ts'),
    plugins: [
      resolveSources(),
      typescript({ tsconfig: join(elements, 'tsconfig.build.json') }),
      declarationsEntry(),
    ],
    external: (id) => reactModules.test(id),
    output: { dir: join(dist, 'react'), format: 'es', entryFileNames: 'index.js' },
  },
];
