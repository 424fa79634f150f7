import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { crc32, createDeflateRaw } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import { pluginXml, withScratch } from './plugin-fixtures';
import { deflatedEntry, writeZip } from './zip-writer';
import type { RawEntry } from './zip-writer';

const MEGABYTE = 1024 * 1024;
const NOW = new Date('2026-11-21T00:00:00Z');

/** Deflates `megabytes` of zeros one chunk at a time, so the test itself never holds them either. */
async function zerosEntry(name: string, megabytes: number): Promise<RawEntry> {
  const chunk = Buffer.alloc(MEGABYTE);
  let checksum = 0;
  for (let index = 0; index < megabytes; index++) checksum = crc32(chunk, checksum);
  const source = Readable.from(
    (function* () {
      for (let index = 0; index < megabytes; index++) yield chunk;
    })(),
  );
  const compressed: Buffer[] = [];
  for await (const piece of source.pipe(createDeflateRaw({ level: 1 }))) compressed.push(piece as Buffer);
  return {
    name,
    data: Buffer.concat(compressed),
    method: 8,
    crc32: checksum,
    uncompressedSize: megabytes * MEGABYTE,
  };
}

/** Runs `work` while sampling the resident set size; returns the highest growth over the starting value. */
async function peakMemoryGrowth(work: () => Promise<unknown>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, process.memoryUsage.rss()) - start;
}

describe('inspectPluginArchive memory', () => {
  it('checks a plugin jar holding 768 MB of data without holding it in memory', async () => {
    await withScratch(async (folder) => {
      const path = join(folder, 'large.jar');
      const bigEntry = await zerosEntry('data/zeros.bin', 768);
      await writeFile(path, writeZip([deflatedEntry('META-INF/plugin.xml', pluginXml()), bigEntry]));

      let inspection: Awaited<ReturnType<typeof inspectPluginArchive>> | undefined;
      const growth = await peakMemoryGrowth(async () => {
        inspection = await inspectPluginArchive(path, { now: NOW, tempDir: folder });
      });

      expect(inspection?.ok).toBe(true);
      expect(growth).toBeLessThan(128 * MEGABYTE);
    });
  }, 60_000);

  it('stops reading an entry as soon as it outgrows its declared size', async () => {
    await withScratch(async (folder) => {
      const path = join(folder, 'liar.jar');
      const liar = await zerosEntry('data/zeros.bin', 768);
      await writeFile(
        path,
        writeZip([deflatedEntry('META-INF/plugin.xml', pluginXml()), { ...liar, uncompressedSize: 4096 }]),
      );

      let inspection: Awaited<ReturnType<typeof inspectPluginArchive>> | undefined;
      const growth = await peakMemoryGrowth(async () => {
        inspection = await inspectPluginArchive(path, { now: NOW, tempDir: folder });
      });

      expect(inspection?.ok === false && inspection.result.errors).toEqual([
        "The size header of 'data/zeros.bin' in the upload is forged: the entry decompresses to more than the 4 KB it declares.",
      ]);
      expect(growth).toBeLessThan(128 * MEGABYTE);
    });
  }, 60_000);
});
