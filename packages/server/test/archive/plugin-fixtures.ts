import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

export interface PluginXmlFields {
  id: string;
  name: string;
  version: string;
  vendor: string;
  description: string;
  changeNotes: string;
  ideaVersion: string;
  depends: string;
}

export const DEMO_DESCRIPTION =
  'Highlights matching brackets in rainbow colours so that deeply nested code stays readable.';

/** A descriptor like the ones Gradle's IntelliJ plugin writes; each field can be replaced or dropped (''). */
export function pluginXml(fields: Partial<PluginXmlFields> = {}): string {
  const all: PluginXmlFields = {
    id: '<id>com.example.rainbow</id>',
    name: '<name>Rainbow Brackets</name>',
    version: '<version>2.1.0</version>',
    vendor: '<vendor email="dev@example.com" url="https://example.com">Example &amp; Sons</vendor>',
    description: `<description><![CDATA[<p>${DEMO_DESCRIPTION}</p>]]></description>`,
    changeNotes: '<change-notes><![CDATA[<ul><li>Faster &amp; lighter</li></ul>]]></change-notes>',
    ideaVersion: '<idea-version since-build="241" until-build="243.*"/>',
    depends: [
      '<depends>com.intellij.modules.platform</depends>',
      '<depends optional="true" config-file="withKotlin.xml">org.jetbrains.kotlin</depends>',
    ].join('\n  '),
    ...fields,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>
<idea-plugin>
  ${all.id}
  ${all.name}
  ${all.version}
  ${all.vendor}
  ${all.description}
  ${all.changeNotes}
  ${all.ideaVersion}
  ${all.depends}
  <extensions defaultExtensionNs="com.intellij">
    <annotator language="JAVA" implementationClass="com.example.rainbow.RainbowAnnotator"/>
  </extensions>
</idea-plugin>
`;
}

export type ArchiveContent = Record<string, string | Buffer>;

/** Writes a zip (or jar: the same format) with yazl, the way build tools write them. */
export async function writeArchive(path: string, content: ArchiveContent): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(content)) {
    if (name.endsWith('/')) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(data), name);
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
  return path;
}

/** The bytes of an archive, for nesting a jar inside a zip. */
export async function archiveBytes(content: ArchiveContent): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(content)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function pluginJarContent(xml: string = pluginXml()): ArchiveContent {
  return {
    'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n',
    'META-INF/plugin.xml': xml,
    'com/example/rainbow/RainbowAnnotator.class': Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 61]),
    'messages/Bundle.properties': 'action.toggle=Toggle rainbow\n',
  };
}

export function libraryJarContent(name: string): ArchiveContent {
  return {
    'META-INF/MANIFEST.MF': 'Manifest-Version: 1.0\n',
    [`org/${name}/Library.class`]: Buffer.from([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52]),
  };
}

/** A scratch folder per test, removed afterwards. */
export async function withScratch<T>(run: (folder: string) => Promise<T>): Promise<T> {
  const folder = await mkdtemp(join(tmpdir(), 'archive-test-'));
  try {
    return await run(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
