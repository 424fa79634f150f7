import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'ui',
    environment: 'happy-dom',
    // Stories that read the marketplace API address it relative to the page, as in Storybook's iframe.
    environmentOptions: { happyDOM: { url: 'http://localhost:6006/iframe.html' } },
    setupFiles: ['./test/setup.ts'],
  },
});
