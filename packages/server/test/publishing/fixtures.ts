import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pluginJarContent, pluginXml, writeArchive } from '../archive/plugin-fixtures';

/** The bytes of a plugin jar as a build writes it, with the given id and version. */
export async function pluginJar(
  options: { id?: string; version?: string; since?: string; until?: string } = {},
): Promise<Buffer> {
  const folder = await mkdtemp(join(tmpdir(), 'mp-jar-'));
  try {
    const xml = pluginXml({
      ...(options.id ? { id: `<id>${options.id}</id>` } : {}),
      ...(options.version ? { version: `<version>${options.version}</version>` } : {}),
      ideaVersion: `<idea-version since-build="${options.since ?? '241'}" until-build="${options.until ?? '243.*'}"/>`,
    });
    const path = await writeArchive(join(folder, 'plugin.jar'), pluginJarContent(xml));
    return await readFile(path);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** A 1x1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
