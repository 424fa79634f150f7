import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', './tooling/summary-reporter.ts'],
    // Vitest's default on two cores is one worker; the files wait on databases, child servers and timers
    // often enough that two keep both cores busy. The browser tests (e2e: fileParallelism false) still run
    // one at a time, after the rest.
    maxWorkers: 2,
    projects: [
      'packages/*/vitest.config.ts',
      'packages/server/vitest.isolated.config.ts',
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
