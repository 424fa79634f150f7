import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'ide-simulator',
    environment: 'node',
  },
});
