import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'site',
    environment: 'happy-dom',
    environmentOptions: { happyDOM: { url: 'http://localhost:8080/' } },
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
