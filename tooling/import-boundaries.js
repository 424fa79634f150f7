// @ts-check
/**
 * The package boundaries of DESIGN.md, as lint rules. Each entry says which workspace packages the source
 * files of a package may import; anything else under @marketplace/ is an error. Tests may reach further
 * (for example, the bridge's tests start the IDE simulator), so only non-test files in `src/` are restricted.
 */

/** @type {Record<string, { files: string[], allowed: string[] | 'nothing' }>} */
const rules = {
  core: { files: ['packages/core/src/**'], allowed: 'nothing' },
  protocol: { files: ['packages/protocol/src/**'], allowed: ['core'] },
  'api-contract': { files: ['packages/api-contract/src/**'], allowed: ['core'] },
  'ide-bridge': { files: ['packages/ide-bridge/src/**'], allowed: ['core'] },
  'ide-simulator': { files: ['packages/ide-simulator/src/**'], allowed: ['core'] },
  'api-client': { files: ['packages/api-client/src/**'], allowed: ['core', 'api-contract'] },
  ui: {
    files: ['packages/ui/src/**'],
    allowed: ['core', 'protocol', 'ide-bridge', 'api-client', 'api-contract'],
  },
  elements: {
    files: ['packages/elements/src/**'],
    allowed: ['core', 'protocol', 'ide-bridge', 'api-client', 'api-contract', 'ui'],
  },
  server: { files: ['packages/server/src/**'], allowed: ['core', 'api-contract'] },
  site: {
    files: ['site/src/**'],
    allowed: ['core', 'protocol', 'ide-bridge', 'api-client', 'api-contract', 'ui'],
  },
};

/** Reaching into another package by a relative path skips the rules above, so it is never allowed. */
const crossPackageRelative = {
  regex: String.raw`^(\.\./)+(packages/[^/]+|site|server)(/|$)`,
  message: 'Import another workspace package by its name (@marketplace/...), not by a relative path.',
};

/** @param {string} name @param {string[] | 'nothing'} allowed */
function restrictionFor(name, allowed) {
  if (allowed === 'nothing') {
    return [
      {
        regex: String.raw`^[^.]`,
        message: `packages/${name} is the base of everything: it imports no other package (DESIGN.md).`,
      },
      crossPackageRelative,
    ];
  }
  const allowedPattern = allowed.join('|');
  return [
    {
      regex: String.raw`^@marketplace/(?!(${allowedPattern})$)`,
      message: `${name} may import only ${allowed.map((pkg) => '@marketplace/' + pkg).join(', ')} (DESIGN.md).`,
    },
    crossPackageRelative,
  ];
}

export const importBoundaries = Object.entries(rules).map(([name, { files, allowed }]) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: {
    'no-restricted-imports': ['error', { patterns: restrictionFor(name, allowed) }],
    '@typescript-eslint/no-restricted-imports': 'off',
  },
}));
