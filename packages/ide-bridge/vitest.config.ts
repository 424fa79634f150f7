import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'ide-bridge',
    environment: 'node',
  },
});
