import { createWriteStream } from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { unsafeEntryNameReason, preview } from './entry-rules';
import { formatBytes } from './limits';

/** A problem with the uploaded archive, worded for the developer who uploaded it. */
export class ArchiveRejection extends Error {
  override readonly name = 'ArchiveRejection';
}

/**
 * yauzl refuses unsafe names itself (strictFileNames), validates stored sizes and is driven one entry at a
 * time (lazyEntries) so the central directory is never held whole in memory.
 */
const OPEN_OPTIONS: yauzl.Options = {
  lazyEntries: true,
  validateEntrySizes: true,
  strictFileNames: true,
  decodeStrings: true,
  autoClose: true,
};

/** `label` names the archive in messages: "The upload", "The jar 'demo/lib/demo.jar'". */
export async function openArchive(path: string, label: string): Promise<ZipFile> {
  try {
    return await yauzl.openPromise(path, OPEN_OPTIONS);
  } catch (error) {
    throw new ArchiveRejection(describeOpenFailure(errorMessage(error), label));
  }
}

function describeOpenFailure(message: string, label: string): string {
  if (message.startsWith('End of central directory record signature not found')) {
    return `${label} is not a zip or jar archive, or it is cut short: its end-of-archive record is missing. Upload the plugin's .zip or .jar as built.`;
  }
  return `${label} is damaged and cannot be read as a zip archive (${message}).`;
}

/** Walks the entries one by one; yauzl's own complaints about an entry become developer-facing rejections. */
export async function* entriesOf(zip: ZipFile, label: string): AsyncGenerator<Entry> {
  const iterator = zip.eachEntry();
  try {
    while (true) {
      let step: IteratorResult<Entry>;
      try {
        step = await iterator.next();
      } catch (error) {
        throw new ArchiveRejection(describeEntryFailure(errorMessage(error), label));
      }
      if (step.done) return;
      yield step.value;
    }
  } finally {
    // Stops iteration early (and closes the file) when the caller rejects the archive half way through.
    zip.close();
  }
}

function describeEntryFailure(message: string, label: string): string {
  const unsafeName =
    /^(?:invalid characters in fileName|absolute path|invalid relative path): ([\s\S]*)$/.exec(message);
  if (unsafeName) {
    const reason = unsafeEntryNameReason(unsafeName[1] ?? '') ?? message;
    return `${label} contains an unsafe path: ${reason}. Every entry must stay inside the folder the archive is unpacked into.`;
  }
  if (message.startsWith('compressed/uncompressed size mismatch for stored file')) {
    return `${label} is forged or damaged: an entry stored without compression declares a size different from its data.`;
  }
  if (message === 'strong encryption is not supported') {
    return `${label} contains encrypted entries; plugin archives must not be encrypted.`;
  }
  return `${label} is damaged and cannot be read (${message}).`;
}

/** Counts the bytes that all entries of one archive really decompress to, across entries. */
export class DecompressedBudget {
  private used = 0;

  constructor(
    private readonly limit: number,
    private readonly label: string,
  ) {}

  take(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) {
      throw new ArchiveRejection(
        `${this.label} decompresses to more than ${formatBytes(this.limit)}, the most an upload may unpack to (zip bombs stop here).`,
      );
    }
  }

  get bytes(): number {
    return this.used;
  }
}

export type EntrySink =
  | { kind: 'discard' }
  | { kind: 'file'; path: string }
  | { kind: 'memory'; maxBytes: number }
  /** Each checked chunk is handed over as it arrives and then dropped (hashing, sniffing: src/trust/scanning). */
  | { kind: 'observe'; onChunk: (chunk: Buffer) => void };

/**
 * Streams one entry's data into a sink. On the way every chunk is counted against the size the entry
 * declares and against the archive's budget, and the CRC-32 is checked at the end, independently of yauzl's
 * own checks, so a forged header or damaged data never passes. Returns the data for memory sinks.
 */
export async function streamEntry(
  zip: ZipFile,
  entry: Entry,
  sink: EntrySink,
  budget: DecompressedBudget,
  label: string,
): Promise<Buffer | undefined> {
  const where = `'${preview(entry.fileName)}' in ${lowerFirst(label)}`;
  let readStream;
  try {
    readStream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw new ArchiveRejection(`${label} is damaged: ${where} cannot be read (${errorMessage(error)}).`);
  }
  let seen = 0;
  let checksum = 0;
  const verifier = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > entry.uncompressedSize) {
        callback(forgedSize(where, entry.uncompressedSize));
        return;
      }
      try {
        budget.take(chunk.length);
      } catch (error) {
        callback(error as Error);
        return;
      }
      checksum = crc32(chunk, checksum);
      callback(null, chunk);
    },
    flush(callback) {
      if (seen !== entry.uncompressedSize) {
        callback(new ArchiveRejection(`${label} is damaged: ${where} ends before its declared size.`));
      } else if (checksum !== entry.crc32) {
        callback(new ArchiveRejection(`${label} is damaged: ${where} fails its CRC-32 check.`));
      } else {
        callback();
      }
    },
  });
  const chunks: Buffer[] = [];
  let memoryBytes = 0;
  const destination =
    sink.kind === 'file'
      ? createWriteStream(sink.path, { flags: 'wx' })
      : new Writable({
          write(chunk: Buffer, _encoding, callback) {
            if (sink.kind === 'memory') {
              memoryBytes += chunk.length;
              if (memoryBytes > sink.maxBytes) {
                callback(new ArchiveRejection(`${where} is larger than ${formatBytes(sink.maxBytes)}.`));
                return;
              }
              chunks.push(chunk);
            } else if (sink.kind === 'observe') {
              sink.onChunk(chunk);
            }
            callback();
          },
        });
  try {
    await pipeline(readStream, verifier, destination);
  } catch (error) {
    if (error instanceof ArchiveRejection) throw error;
    throw new ArchiveRejection(describeStreamFailure(errorMessage(error), label, where, entry));
  }
  return sink.kind === 'memory' ? Buffer.concat(chunks) : undefined;
}

function describeStreamFailure(message: string, label: string, where: string, entry: Entry): string {
  if (message.startsWith('too many bytes in the stream'))
    return forgedSize(where, entry.uncompressedSize).message;
  if (message.startsWith('not enough bytes in the stream')) {
    return `${label} is damaged: ${where} ends before its declared size.`;
  }
  return `${label} is damaged: ${where} cannot be decompressed (${message}).`;
}

function forgedSize(where: string, declared: number): ArchiveRejection {
  return new ArchiveRejection(
    `The size header of ${where} is forged: the entry decompresses to more than the ${formatBytes(declared)} it declares.`,
  );
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
