import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './tooling/summary-reporter.ts'],
    projects: [
      'packages/*/vitest.config.ts',
      'site/vitest.config.{ts,mts}',
      'tooling/vitest.config.ts',
      'e2e/vitest.config.ts',
    ],
    coverage: {
      provider: 'v8',
      include: ['packages/*/src/**/*.{ts,tsx}'],
      exclude: ['**/*.test.{ts,tsx}', '**/*.stories.{ts,tsx}', '**/test/**'],
      // The summary reporter prints the total; the per-file tables are in coverage/.
      reporter: ['json-summary', 'html'],
      thresholds: {
        'packages/core/src/**': { lines: 90 },
      },
    },
  },
});
