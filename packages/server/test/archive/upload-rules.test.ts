import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import type { ArchiveInspection, InspectOptions } from '../../src/archive';
import {
  archiveBytes,
  libraryJarContent,
  pluginJarContent,
  pluginXml,
  withScratch,
  writeArchive,
} from './plugin-fixtures';
import type { ArchiveContent } from './plugin-fixtures';
import { storedEntry, writeZip } from './zip-writer';

const NOW = new Date('2026-11-21T00:00:00Z');

async function inspectContent(
  content: ArchiveContent,
  options: InspectOptions = {},
): Promise<ArchiveInspection> {
  return withScratch(async (folder) => {
    const path = await writeArchive(join(folder, 'upload.zip'), content);
    return inspectPluginArchive(path, { now: NOW, tempDir: folder, ...options });
  });
}

function errorsOf(inspection: ArchiveInspection): string[] {
  return inspection.ok ? [] : inspection.result.errors;
}

describe('inspectPluginArchive rules for a new version', { timeout: 30_000 }, () => {
  it('refuses a descriptor whose id is not the plugin being updated', async () => {
    const inspection = await inspectContent(pluginJarContent(), { expectedXmlId: 'com.example.other' });
    expect(inspection).toEqual({
      ok: false,
      result: {
        errors: [
          "plugin.xml declares the id 'com.example.rainbow', but this plugin's id is 'com.example.other': a new version must keep the plugin's id.",
        ],
        warnings: [],
        isErrorUnknown: false,
      },
    });
  });

  it('refuses a version that has already been uploaded, and accepts a new one', async () => {
    const content = pluginJarContent();
    expect(errorsOf(await inspectContent(content, { existingVersions: ['2.0.0', '2.1.0'] }))).toEqual([
      'Version 2.1.0 has already been uploaded for this plugin: raise <version> in plugin.xml.',
    ]);
    const accepted = await inspectContent(content, {
      expectedXmlId: 'com.example.rainbow',
      existingVersions: ['2.0.0'],
    });
    expect(accepted.ok).toBe(true);
  });

  it('passes descriptor errors and warnings on in the upload result shape', async () => {
    const xml = pluginXml({ vendor: '', description: '<description>Short.</description>' });
    expect(await inspectContent(pluginJarContent(xml))).toEqual({
      ok: false,
      result: {
        errors: [
          'plugin.xml does not declare <vendor>: add <vendor email="..." url="...">Your name or company</vendor>.',
        ],
        warnings: ['The description is 6 characters long; at least 40 tell people what the plugin does.'],
        isErrorUnknown: false,
      },
    });
  });

  it('returns warnings beside an accepted descriptor', async () => {
    const inspection = await inspectContent(
      pluginJarContent(pluginXml({ description: '<description>Tiny.</description>' })),
    );
    expect(inspection.ok && inspection.warnings).toEqual([
      'The description is 5 characters long; at least 40 tell people what the plugin does.',
    ]);
  });
});

describe('inspectPluginArchive rules for plugin zips', { timeout: 30_000 }, () => {
  it('refuses plugin.xml in two jars', async () => {
    const inspection = await inspectContent({
      'rainbow/lib/a.jar': await archiveBytes(pluginJarContent()),
      'rainbow/lib/b.jar': await archiveBytes(pluginJarContent()),
    });
    expect(errorsOf(inspection)).toEqual([
      "plugin.xml was found in more than one jar ('rainbow/lib/a.jar', 'rainbow/lib/b.jar'): the IDE could not tell which one describes the plugin. Keep META-INF/plugin.xml in one jar only.",
    ]);
  });

  it('refuses files beside the plugin folder', async () => {
    const inspection = await inspectContent({
      'rainbow/lib/rainbow.jar': await archiveBytes(pluginJarContent()),
      '__MACOSX/._rainbow': 'resource fork',
    });
    expect(errorsOf(inspection)).toEqual([
      "A plugin zip must hold exactly one top-level folder, <name>/ with the plugin's jars in <name>/lib/; this one holds 'rainbow/', '__MACOSX/'.",
    ]);
  });

  it('refuses names that collide on case-insensitive file systems, in zips only', async () => {
    const jar = await archiveBytes(pluginJarContent());
    const inspection = await inspectContent({
      'rainbow/lib/rainbow.jar': jar,
      'rainbow/lib/Rainbow.jar': await archiveBytes(libraryJarContent('shadow')),
    });
    expect(errorsOf(inspection)).toEqual([
      "The upload holds both 'rainbow/lib/rainbow.jar' and 'rainbow/lib/Rainbow.jar', which are the same file on Windows and macOS: one would overwrite the other when the IDE unpacks the plugin.",
    ]);
    // Obfuscated jars legitimately hold a.class beside A.class; a jar is never unpacked.
    const obfuscated = await inspectContent({ ...pluginJarContent(), 'o/a.class': 'x', 'o/A.class': 'y' });
    expect(obfuscated.ok).toBe(true);
  });

  it('applies the archive rules to the jars it opens', async () => {
    const linkJar = writeZip([
      storedEntry('META-INF/plugin.xml', pluginXml()),
      storedEntry('icons/logo.svg', '/etc/passwd', { externalAttributes: 0o120777 * 0x10000 }),
    ]);
    expect(errorsOf(await inspectContent({ 'rainbow/lib/rainbow.jar': linkJar }))).toEqual([
      "The jar 'rainbow/lib/rainbow.jar' contains a symbolic link, 'icons/logo.svg': links could point anywhere on the machine that installs the plugin, so archives with links are refused.",
    ]);
    const crowdedJar = await archiveBytes({
      ...pluginJarContent(),
      ...libraryJarContent('a'),
      ...libraryJarContent('b'),
    });
    expect(
      errorsOf(
        await inspectContent({ 'rainbow/lib/rainbow.jar': crowdedJar }, { limits: { maxEntries: 5 } }),
      ),
    ).toEqual(["The jar 'rainbow/lib/rainbow.jar' has 6 entries; at most 5 are accepted in one archive."]);
  });

  it('counts the entries of every jar it opens against one total', async () => {
    const library = await archiveBytes(libraryJarContent('shared'));
    const content = {
      'rainbow/lib/rainbow.jar': await archiveBytes(pluginJarContent()),
      'rainbow/lib/a.jar': library,
      'rainbow/lib/b.jar': library,
    };
    // 3 entries in the zip, 4 in rainbow.jar and 2 in each library jar: 11 together.
    expect((await inspectContent(content, { limits: { maxTotalEntries: 11 } })).ok).toBe(true);
    expect(errorsOf(await inspectContent(content, { limits: { maxTotalEntries: 10 } }))).toEqual([
      'The upload and the jars inside it list more than 10 entries together, the most accepted.',
    ]);
  });

  it('refuses a plugin.xml over the descriptor limit before reading it', async () => {
    const inspection = await inspectContent(pluginJarContent(pluginXml() + ' '.repeat(2048)), {
      limits: { maxDescriptorBytes: 1024 },
    });
    expect(errorsOf(inspection)).toEqual([
      expect.stringMatching(/^plugin.xml in the upload is \d\.\d KB; at most 1 KB is accepted\.$/),
    ]);
  });

  it('counts the bytes of the jars it unpacks against the upload budget', async () => {
    const jar = await archiveBytes({ ...pluginJarContent(), 'noise.bin': Buffer.alloc(4096, 1) });
    const inspection = await inspectContent(
      { 'rainbow/lib/rainbow.jar': jar },
      { limits: { maxTotalUncompressedBytes: jar.length - 1 } },
    );
    expect(errorsOf(inspection)).toEqual([
      expect.stringMatching(
        /^The upload holds 'rainbow\/lib\/rainbow.jar', which would decompress to .* \(zip bombs stop here\)\.$/,
      ),
    ]);
  });
});

describe('inspectPluginArchive failures of its own', { timeout: 30_000 }, () => {
  it('reports a server problem as an unknown error, keeping the cause for the log', async () => {
    const inspection = await inspectPluginArchive('/nonexistent/upload.zip', { now: NOW });
    expect(inspection.ok).toBe(false);
    if (inspection.ok) return;
    expect(inspection.result).toEqual({
      errors: ['The archive could not be inspected because of a server problem; please try again later.'],
      warnings: [],
      isErrorUnknown: true,
    });
    expect((inspection.internalError as NodeJS.ErrnoException).code).toBe('ENOENT');
  });

  it('refuses limits that are not positive integers, as a programming error', async () => {
    await expect(inspectPluginArchive('/nonexistent.zip', { limits: { maxEntries: 0 } })).rejects.toThrow(
      'Archive limit maxEntries must be a positive integer, got 0',
    );
  });
});
