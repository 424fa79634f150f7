import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    // Most files build an app in beforeAll, which runs every migration on a fresh database: on a busy two-core
    // machine that passed the default 10 s.
    hookTimeout: 60_000,
  },
});
