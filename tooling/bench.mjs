// Runs a named benchmark: `pnpm bench <name> [args...]` finds `<package>/bench/<name>.ts` in the workspace
// and runs it with tsx. `pnpm bench` alone lists the benchmarks there are.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packageDirs = [
  ...readdirSync(join(root, 'packages')).map((name) => join('packages', name)),
  'site',
  'e2e',
  'stories',
];

/** @returns {Map<string, string>} benchmark name -> script path */
function findBenchmarks() {
  const found = new Map();
  for (const dir of packageDirs) {
    const benchDir = join(root, dir, 'bench');
    if (!existsSync(benchDir)) continue;
    for (const file of readdirSync(benchDir)) {
      const match = /^([a-z0-9-]+)\.(ts|mjs)$/.exec(file);
      if (match?.[1]) found.set(match[1], join(dir, 'bench', file));
    }
  }
  return found;
}

const [name, ...args] = process.argv.slice(2);
const benchmarks = findBenchmarks();
const script = name ? benchmarks.get(name) : undefined;
if (!script) {
  if (name) console.error(`No benchmark named "${name}".`);
  console.error(`Benchmarks: ${[...benchmarks.keys()].sort().join(', ') || '(none yet)'}`);
  console.error('Usage: pnpm bench <name> [args...]');
  process.exit(name ? 1 : 0);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', join(root, script), ...args], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(result.status ?? 1);
