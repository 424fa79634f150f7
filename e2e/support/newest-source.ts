import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time (ms) of the files in these files and folders (recursively); 0 for none. */
export function newestModification(paths: readonly string[]): number {
  let newest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stats = statSync(path);
    if (!stats.isDirectory()) {
      newest = Math.max(newest, stats.mtimeMs);
      continue;
    }
    for (const entry of readdirSync(path, { withFileTypes: true, recursive: true })) {
      if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** True when every output exists and none is older than the newest of the sources. */
export function builtAfter(outputs: readonly string[], sources: readonly string[]): boolean {
  if (!outputs.every((file) => existsSync(file))) return false;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return built >= newestModification(sources);
}
