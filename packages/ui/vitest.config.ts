import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'ui',
    environment: 'happy-dom',
    setupFiles: ['./test/setup.ts'],
  },
});
