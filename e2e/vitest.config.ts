import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/**/*.test.ts', 'site/**/*.test.ts'],
    globalSetup: ['./support/build-sdk.ts', './support/build-site.ts', './support/demo-template.ts'],
    // Each file starts a server, an IDE simulator and Chromium; on two cores they run one after another.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
