import { crc32, deflateRawSync } from 'node:zlib';

/**
 * A minimal zip writer that does exactly what it is told, lies included: hostile archives need names,
 * sizes, checksums and attributes that honest tools (yazl among them) refuse to write.
 */
export interface RawEntry {
  name: string;
  /** The bytes as stored: compressed already when `method` is 8. */
  data: Buffer;
  method: 0 | 8;
  crc32: number;
  uncompressedSize: number;
  externalAttributes?: number;
  /** Host (upper byte) and zip version (lower byte); Unix by default. */
  versionMadeBy?: number;
  generalPurposeFlags?: number;
  /** Extra field bytes, written in both headers. */
  extraField?: Buffer;
  /** A different name for the local header only (what streaming unzip tools read). */
  localName?: string;
  /** A different uncompressed size for the local header only. */
  localUncompressedSize?: number;
}

const UNIX_REGULAR_FILE = 0o100644;

export function storedEntry(
  name: string,
  content: Buffer | string,
  overrides: Partial<RawEntry> = {},
): RawEntry {
  const bytes = Buffer.from(content);
  return { name, data: bytes, method: 0, crc32: crc32(bytes), uncompressedSize: bytes.length, ...overrides };
}

export function deflatedEntry(
  name: string,
  content: Buffer | string,
  overrides: Partial<RawEntry> = {},
): RawEntry {
  const bytes = Buffer.from(content);
  return {
    name,
    data: deflateRawSync(bytes),
    method: 8,
    crc32: crc32(bytes),
    uncompressedSize: bytes.length,
    ...overrides,
  };
}

export function writeZip(entries: readonly RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const localName = Buffer.from(entry.localName ?? entry.name, 'utf8');
    const extra = entry.extraField ?? Buffer.alloc(0);
    const flags = entry.generalPurposeFlags ?? 0x0800; // names are UTF-8
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x5b21, 12); // 2025-09-01
    local.writeUInt32LE(entry.crc32 >>> 0, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.localUncompressedSize ?? entry.uncompressedSize, 22);
    local.writeUInt16LE(localName.length, 26);
    local.writeUInt16LE(extra.length, 28);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(entry.versionMadeBy ?? (3 << 8) | 20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(entry.method, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x5b21, 14);
    header.writeUInt32LE(entry.crc32 >>> 0, 16);
    header.writeUInt32LE(entry.data.length, 20);
    header.writeUInt32LE(entry.uncompressedSize, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(extra.length, 30);
    header.writeUInt32LE((entry.externalAttributes ?? UNIX_REGULAR_FILE * 0x10000) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name, extra);
    parts.push(local, localName, extra, entry.data);
    offset += local.length + localName.length + extra.length + entry.data.length;
  }
  const centralDirectory = Buffer.concat(central);
  const needsZip64 = entries.length > 0xfffe;
  const tail: Buffer[] = [];
  if (needsZip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4);
    record.writeUInt16LE((3 << 8) | 45, 12);
    record.writeUInt16LE(45, 14);
    record.writeBigUInt64LE(BigInt(entries.length), 24);
    record.writeBigUInt64LE(BigInt(entries.length), 32);
    record.writeBigUInt64LE(BigInt(centralDirectory.length), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + centralDirectory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = needsZip64 ? 0xffff : entries.length;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, centralDirectory, ...tail, end]);
}

/** An Info-ZIP Unicode Path extra field (0x7075): yauzl shows this name instead of the raw one. */
export function unicodePathExtraField(rawName: string, unicodeName: string): Buffer {
  const name = Buffer.from(unicodeName, 'utf8');
  const header = Buffer.alloc(9);
  header.writeUInt16LE(0x7075, 0);
  header.writeUInt16LE(5 + name.length, 2);
  header.writeUInt8(1, 4);
  header.writeUInt32LE(crc32(Buffer.from(rawName, 'utf8')) >>> 0, 5);
  return Buffer.concat([header, name]);
}
