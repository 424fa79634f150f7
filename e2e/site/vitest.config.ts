import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

/** The site's browser tests on their own (`npx vitest run --config e2e/site/vitest.config.ts`). */
export default defineProject({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'e2e-site',
    environment: 'node',
    include: ['*.test.ts'],
    globalSetup: ['../support/build-site.ts', '../support/demo-template.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
