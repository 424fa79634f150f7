import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectPluginArchive } from '../../src/archive';
import {
  DEMO_DESCRIPTION,
  archiveBytes,
  libraryJarContent,
  pluginJarContent,
  pluginXml,
  withScratch,
  writeArchive,
} from './plugin-fixtures';

const NOW = new Date('2026-11-21T00:00:00Z');

const EXPECTED_DESCRIPTOR = {
  id: 'com.example.rainbow',
  name: 'Rainbow Brackets',
  version: '2.1.0',
  vendor: { name: 'Example & Sons', email: 'dev@example.com', url: 'https://example.com' },
  description: `<p>${DEMO_DESCRIPTION}</p>`,
  changeNotes: '<ul><li>Faster &amp; lighter</li></ul>',
  sinceBuild: '241',
  untilBuild: '243.*',
  dependencies: [
    { id: 'com.intellij.modules.platform', optional: false, configFile: null },
    { id: 'org.jetbrains.kotlin', optional: true, configFile: 'withKotlin.xml' },
  ],
  productDescriptor: null,
};

describe('inspectPluginArchive on valid plugins', { timeout: 30_000 }, () => {
  it('reads the descriptor of a plugin jar', async () => {
    await withScratch(async (folder) => {
      const jar = await writeArchive(join(folder, 'rainbow.jar'), pluginJarContent());
      const inspection = await inspectPluginArchive(jar, { now: NOW, tempDir: folder });
      expect(inspection).toEqual({ ok: true, kind: 'jar', descriptor: EXPECTED_DESCRIPTOR, warnings: [] });
    });
  });

  it('reads the descriptor from the jar under <name>/lib/ of a plugin zip, and cleans up after itself', async () => {
    await withScratch(async (folder) => {
      const zip = await writeArchive(join(folder, 'upload.bin'), {
        'rainbow/': '',
        'rainbow/lib/': '',
        'rainbow/lib/rainbow.jar': await archiveBytes(pluginJarContent()),
      });
      const inspection = await inspectPluginArchive(zip, { now: NOW, tempDir: folder });
      expect(inspection).toEqual({ ok: true, kind: 'zip', descriptor: EXPECTED_DESCRIPTOR, warnings: [] });
      expect(await readdir(folder)).toEqual(['upload.bin']);
    });
  });

  it('finds plugin.xml in whichever of several library jars holds it', async () => {
    await withScratch(async (folder) => {
      const zip = await writeArchive(join(folder, 'rainbow.zip'), {
        'rainbow/lib/annotations.jar': await archiveBytes(libraryJarContent('annotations')),
        'rainbow/lib/rainbow.jar': await archiveBytes(
          pluginJarContent(pluginXml({ version: '<version>3.0.0-eap.1</version>' })),
        ),
        'rainbow/lib/kotlinx-coroutines.jar': await archiveBytes(libraryJarContent('coroutines')),
        'rainbow/lib/modules/rainbow-kotlin.jar': await archiveBytes(libraryJarContent('module')),
      });
      const inspection = await inspectPluginArchive(zip, { now: NOW, tempDir: folder });
      expect(inspection.ok && inspection.descriptor.version).toBe('3.0.0-eap.1');
      expect(inspection.ok && inspection.kind).toBe('zip');
    });
  });
});
