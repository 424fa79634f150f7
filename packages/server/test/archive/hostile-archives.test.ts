import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import { HOSTILE_ARCHIVES } from './hostile-corpus';
import { withScratch } from './plugin-fixtures';

const NOW = new Date('2026-11-21T00:00:00Z');

describe('inspectPluginArchive on hostile archives', () => {
  it.each(HOSTILE_ARCHIVES.map((archive) => [archive.name, archive] as const))(
    '%s: one clear error, nothing written outside the scratch folder',
    async (_name, archive) => {
      await withScratch(async (folder) => {
        const uploads = join(folder, 'uploads');
        const scratch = join(folder, 'scratch');
        await mkdir(uploads);
        await mkdir(scratch);
        const path = await archive.write(uploads);
        const before = await readdir(folder, { recursive: true });

        const inspection = await inspectPluginArchive(path, {
          now: NOW,
          tempDir: scratch,
          limits: archive.limits,
        });

        expect(inspection.ok).toBe(false);
        if (inspection.ok) return;
        expect(inspection.result.isErrorUnknown).toBe(false);
        expect(inspection.result.errors).toHaveLength(1);
        expect(inspection.result.errors[0]).toMatch(archive.expectedError);
        expect(await readdir(folder, { recursive: true })).toEqual(before);
        expect(await readdir(scratch)).toEqual([]);
      });
    },
    30_000,
  );
});
