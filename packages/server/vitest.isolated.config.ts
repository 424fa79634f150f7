import { defineProject } from 'vitest/config';
import { FILES_NEEDING_ISOLATION, serverTestOptions } from './vitest.config';

/** The server's test files that replace a module (`vi.mock`), each in a module graph of its own. */
export default defineProject({
  test: {
    ...serverTestOptions,
    name: 'server-isolated',
    include: FILES_NEEDING_ISOLATION,
  },
});
