import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { scanArchive, type ArchiveScan } from '../../../src/trust/scanning/scan';
import { loadMalwareHashes } from '../../../src/trust/scanning/malware';
import type { ClamavOptions } from '../../../src/trust/scanning/options';
import {
  archiveBytes,
  pluginJarContent,
  withScratch,
  writeArchive,
  type ArchiveContent,
} from '../../archive/plugin-fixtures';

/** The EICAR test file: 68 bytes every anti-virus reports, harmless by design. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

/** A private key made now, in PEM, of the kind asked. */
export function privateKeyPem(kind: 'rsa' | 'ed25519' = 'rsa'): string {
  const { privateKey } =
    kind === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 1024 }) : generateKeyPairSync('ed25519');
  return privateKey.export({ type: kind === 'rsa' ? 'pkcs1' : 'pkcs8', format: 'pem' }) as string;
}

/**
 * The first bytes of a 64-bit little-endian ELF file (what `file` reads): magic, class, data, version, then
 * `e_type` at offset 16 (2: an executable, 3: a shared library). Enough for a scanner that reads headers.
 */
export function elfHeader(type: 2 | 3 = 2): Buffer {
  const header = Buffer.alloc(64);
  header.write('\x7fELF', 0, 'latin1');
  header[4] = 2; // 64-bit
  header[5] = 1; // little-endian
  header[6] = 1; // ELF version
  header.writeUInt16LE(type, 16);
  header.writeUInt16LE(0x3e, 18); // x86-64
  return header;
}

/** A plugin zip as the IDE installs it: `<name>/lib/<name>.jar` and whatever `extra` adds. */
export async function pluginZip(
  extra: ArchiveContent = {},
  jarExtra: ArchiveContent = {},
): Promise<ArchiveContent> {
  return {
    'rainbow/lib/rainbow.jar': await archiveBytes({ ...pluginJarContent(), ...jarExtra }),
    ...extra,
  };
}

/** Scans an archive made in the test with the built-in checks (and ClamAV when given). */
export async function scan(
  content: ArchiveContent,
  options: { kind?: 'zip' | 'jar'; hashesFile?: string; clamav?: ClamavOptions } = {},
): Promise<ArchiveScan> {
  return withScratch(async (folder) => {
    const kind = options.kind ?? 'zip';
    const archivePath = await writeArchive(join(folder, `plugin.${kind}`), content);
    return scanArchive({
      archivePath,
      kind,
      tempDir: folder,
      malwareHashes: await loadMalwareHashes(options.hashesFile),
      maxContentBytes: 4 * 1024 * 1024,
      clamav: options.clamav,
    });
  });
}
