import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { VersionFacts } from '../../src/verification/checkers';
import { archiveBytes, pluginXml, type ArchiveContent } from '../archive/plugin-fixtures';

/** The header of a class file of the given major version (the checks read no further). */
export function classFile(major: number): Buffer {
  return Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, (major >> 8) & 0xff, major & 0xff]);
}

/** A descriptor that passes every check: a platform dependency, an optional bundled one, 241 to 243.*. */
export function cleanXml(extra: Partial<Parameters<typeof pluginXml>[0]> = {}): string {
  return pluginXml(extra);
}

/** The clean descriptor of a given version. */
export function xmlFor(version: string, fields: Partial<Parameters<typeof pluginXml>[0]> = {}): string {
  return pluginXml({ version: `<version>${version}</version>`, ...fields });
}

/** The plugin jar: plugin.xml plus classes of the given majors (`com/example/rainbow/C<n>.class`). */
export function pluginJarContent(xml: string, majors: readonly number[] = [61]): ArchiveContent {
  const content: ArchiveContent = {
    'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n',
    'META-INF/plugin.xml': xml,
  };
  majors.forEach((major, index) => {
    content[`com/example/rainbow/C${index}.class`] = classFile(major);
  });
  return content;
}

/** A plugin zip: `rainbow/lib/rainbow.jar` and further jars by file name. */
export async function pluginZipContent(
  xml: string,
  libraries: Record<string, ArchiveContent> = {},
  majors: readonly number[] = [61],
): Promise<ArchiveContent> {
  const content: ArchiveContent = {
    'rainbow/lib/rainbow.jar': await archiveBytes(pluginJarContent(xml, majors)),
  };
  for (const [name, jar] of Object.entries(libraries))
    content[`rainbow/lib/${name}`] = await archiveBytes(jar);
  return content;
}

export function versionFacts(overrides: Partial<VersionFacts> = {}): VersionFacts {
  return {
    id: 1,
    pluginId: 1,
    pluginXmlId: 'com.example.rainbow',
    pricingModel: 'FREE',
    version: '2.1.0',
    channel: '',
    sinceBuild: '241',
    untilBuild: '243.*',
    fileHash: 'unused',
    fileName: 'rainbow-2.1.0.jar',
    ...overrides,
  };
}

const run = promisify(execFile);

/** A real class file compiled by the installed JDK for `release` (8, 11, 17, 21...). */
export async function compiledClass(className: string, release: number): Promise<Buffer> {
  const folder = await mkdtemp(join(tmpdir(), 'verification-javac-'));
  try {
    await writeFile(join(folder, `${className}.java`), `public class ${className} { }\n`);
    await run('javac', ['--release', String(release), '-d', folder, join(folder, `${className}.java`)]);
    return await readFile(join(folder, `${className}.class`));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
