import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// A React app that uses the SDK's React build (packages/elements/dist/react, `pnpm build` first) with its own React.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist' },
});
