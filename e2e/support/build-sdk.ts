import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { builtAfter } from './newest-source';
import { SDK_BUNDLE, SDK_CHUNK_MANIFEST, SDK_LOADER, repositoryRoot } from './paths';

/** The sources the SDK bundle is made of; a newer file in any of them means the dist is stale. */
const SOURCE_DIRS = ['core', 'protocol', 'ide-bridge', 'ui', 'elements'].map((name) =>
  join(repositoryRoot, 'packages', name, 'src'),
);

/**
 * Builds the SDK before the browser tests when it is missing (a clean clone) or older than its sources, so
 * the tests never pass or fail on yesterday's bundle.
 */
export default function buildSdkWhenNeeded(): void {
  const outputs = [SDK_BUNDLE, SDK_LOADER, SDK_CHUNK_MANIFEST];
  if (builtAfter(outputs, [...SOURCE_DIRS, join(repositoryRoot, 'rollup.config.mjs')])) return;
  const rollup = join(repositoryRoot, 'node_modules/rollup/dist/bin/rollup');
  const result = spawnSync(process.execPath, [rollup, '-c', 'rollup.config.mjs'], {
    cwd: repositoryRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0)
    throw new Error('Building the SDK (rollup -c rollup.config.mjs) failed; see above.');
}
