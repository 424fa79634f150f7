import yazl from 'yazl';
import type { DemoPlugin, DemoVendor, DemoVersion } from './generate';

/** The descriptor of one version, as the IDE reads it from META-INF/plugin.xml. */
export function pluginXml(plugin: DemoPlugin, vendor: DemoVendor, version: DemoVersion): string {
  const until = version.untilBuild === null ? '' : ` until-build="${escapeXml(version.untilBuild)}"`;
  const product = version.product
    ? `  <product-descriptor code="${escapeXml(version.product.code)}" release-date="${version.product.releaseDate.replaceAll('-', '')}" release-version="${version.product.releaseVersion}"${version.product.optional ? ' optional="true"' : ''}/>\n`
    : '';
  const depends = version.dependencies
    .map((dependency) => `  <depends>${escapeXml(dependency)}</depends>\n`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<idea-plugin>\n' +
    `  <id>${escapeXml(plugin.xmlId)}</id>\n` +
    `  <name>${escapeXml(plugin.name)}</name>\n` +
    `  <version>${escapeXml(version.version)}</version>\n` +
    `  <vendor email="${escapeXml(vendor.email)}" url="${escapeXml(vendor.url)}">${escapeXml(vendor.name)}</vendor>\n` +
    `  <description>${cdata(plugin.description)}</description>\n` +
    `  <change-notes>${cdata(version.notes)}</change-notes>\n` +
    `  <idea-version since-build="${escapeXml(version.sinceBuild)}"${until}/>\n` +
    product +
    depends +
    '</idea-plugin>\n'
  );
}

/**
 * A real, small plugin archive for one version: a jar holding the descriptor and a manifest, or a zip with
 * that jar at `<slug>/lib/<slug>.jar`. Entry times are the version's date, so equal input gives equal bytes.
 */
export async function buildPluginArchive(
  plugin: DemoPlugin,
  vendor: DemoVendor,
  version: DemoVersion,
): Promise<Buffer> {
  const jar = await zipOf(version.createdAt, [
    [
      'META-INF/MANIFEST.MF',
      `Manifest-Version: 1.0\r\nImplementation-Title: ${plugin.xmlId}\r\nImplementation-Version: ${version.version}\r\n\r\n`,
    ],
    ['META-INF/plugin.xml', pluginXml(plugin, vendor, version)],
  ]);
  if (version.packaging === 'jar') return jar;
  return zipOf(version.createdAt, [[`${plugin.slug}/lib/${plugin.slug}.jar`, jar]]);
}

function zipOf(mtime: Date, entries: Array<[name: string, content: string | Buffer]>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const zip = new yazl.ZipFile();
    for (const [name, content] of entries) {
      // Stored, not deflated: the entries are a few hundred bytes, and bulk seeds build hundreds of thousands.
      zip.addBuffer(typeof content === 'string' ? Buffer.from(content, 'utf8') : content, name, {
        mtime,
        compress: false,
      });
    }
    zip.end();
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** HTML goes into CDATA as the IDE expects; a `]]>` inside is split so it cannot end the section early. */
function cdata(html: string): string {
  return `<![CDATA[${html.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
