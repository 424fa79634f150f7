import { crc32 } from 'node:zlib';

/**
 * A zip (jar) with stored entries: what a build tool writes for a small plugin, made without dependencies.
 * Text entries are written as UTF-8; bytes (class files) as they are.
 */
export function zipArchive(entries: Record<string, string | Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const fileName = Buffer.from(name, 'utf8');
    const checksum = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(checksum, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralSize = centrals.reduce((sum, part) => sum + part.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

/** A plugin jar with its descriptor, for the upload flows. */
export function pluginJar(fields: {
  xmlId: string;
  name: string;
  version: string;
  description: string;
}): Buffer {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<idea-plugin>
  <id>${fields.xmlId}</id>
  <name>${fields.name}</name>
  <version>${fields.version}</version>
  <vendor email="dev@example.com" url="https://example.com">Example Tools</vendor>
  <description><![CDATA[${fields.description}]]></description>
  <change-notes><![CDATA[<p>Version ${fields.version}.</p>]]></change-notes>
  <idea-version since-build="241" until-build="263.*"/>
  <depends>com.intellij.modules.platform</depends>
</idea-plugin>
`;
  return zipArchive({
    'META-INF/MANIFEST.MF': `Manifest-Version: 1.0\r\nImplementation-Title: ${fields.xmlId}\r\n\r\n`,
    'META-INF/plugin.xml': xml,
  });
}
