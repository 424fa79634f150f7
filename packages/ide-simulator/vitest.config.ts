import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'ide-simulator',
    environment: 'node',
    // Real loopback HTTP on a machine shared with other test runs: allow for a slow moment.
    testTimeout: 20_000,
  },
});
