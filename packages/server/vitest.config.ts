import { configDefaults, defineProject } from 'vitest/config';

/**
 * Test files that replace a module (`vi.mock`) before the server's modules load: they get a module graph of
 * their own (vitest.isolated.config.ts). Every other file shares one graph per worker (`isolate: false`), so
 * the server's few thousand modules are evaluated once per worker rather than once per file; these files
 * leave nothing behind (each closes its app and database, restores what it stubs and the environment
 * variables it sets).
 */
export const FILES_NEEDING_ISOLATION = [
  'test/api/html-security-headers.test.ts',
  'test/authorization/route-table.test.ts',
  'test/publishing/disk-full.test.ts',
  'test/trust/mirror-rebinding.test.ts',
];

export const serverTestOptions = {
  environment: 'node',
  // Most files build an app in beforeAll, which runs every migration on a fresh database: on a busy two-core
  // machine that passed the default 10 s.
  hookTimeout: 60_000,
} as const;

export default defineProject({
  test: {
    ...serverTestOptions,
    name: 'server',
    isolate: false,
    exclude: [...configDefaults.exclude, ...FILES_NEEDING_ISOLATION],
  },
});
