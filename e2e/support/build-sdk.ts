import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SDK_BUNDLE, SDK_CHUNK_MANIFEST, SDK_LOADER, repositoryRoot } from './paths';

/** The sources the SDK bundle is made of; a newer file in any of them means the dist is stale. */
const SOURCE_DIRS = ['core', 'protocol', 'ide-bridge', 'ui', 'elements'].map((name) =>
  join(repositoryRoot, 'packages', name, 'src'),
);

function newestModification(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the SDK before the browser tests when it is missing (a clean clone) or older than its sources, so
 * the tests never pass or fail on yesterday's bundle.
 */
export default function buildSdkWhenNeeded(): void {
  const outputs = [SDK_BUNDLE, SDK_LOADER, SDK_CHUNK_MANIFEST];
  if (outputs.every((file) => existsSync(file))) {
    const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
    const sources = Math.max(
      ...SOURCE_DIRS.map(newestModification),
      statSync(join(repositoryRoot, 'rollup.config.mjs')).mtimeMs,
    );
    if (built >= sources) return;
  }
  const rollup = join(repositoryRoot, 'node_modules/rollup/dist/bin/rollup');
  const result = spawnSync(process.execPath, [rollup, '-c', 'rollup.config.mjs'], {
    cwd: repositoryRoot,
    stdio: 'inherit',
  });
  if (result.status !== 0)
    throw new Error('Building the SDK (rollup -c rollup.config.mjs) failed; see above.');
}
