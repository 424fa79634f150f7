import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { examplesDir, repositoryRoot } from './paths';

/**
 * Builds the React host example (examples/react-host, with the SDK's React build) into `outDir` with Vite, for
 * the marketplace at `marketplaceOrigin`, to be served under `base`.
 */
export function buildReactHostExample(outDir: string, marketplaceOrigin: string, base = '/'): void {
  const vite = join(repositoryRoot, 'node_modules/vite/bin/vite.js');
  const built = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--base', base],
    {
      cwd: join(examplesDir, 'react-host'),
      env: { ...process.env, VITE_MARKETPLACE_URL: marketplaceOrigin },
      encoding: 'utf8',
    },
  );
  if (built.status !== 0)
    throw new Error(`Building examples/react-host failed:\n${built.stdout}\n${built.stderr}`);
}
