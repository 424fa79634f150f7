import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { escapeXml } from '../routes/ide/xml';
import {
  combineCrc,
  crcShift,
  FINAL_BLOCK,
  GZIP_HEADER,
  gzipTrailer,
  inflatePiece,
  storedPiece,
  type StoredPiece,
} from './deflate-pieces';
import type { FeedItem, FeedSelection } from './feed-store';

/** A feed answer, ready to stream: its exact length and ETag are known before the first byte. */
export interface FeedAnswer {
  length: number;
  etag: string;
  body(): Readable;
}

/** Bytes gathered before each write: large enough for few writes, small enough to keep memory flat. */
const CHUNK_BYTES = 64 * 1024;

/** A part of the document between items: the declaration, category tags, the end. */
function textPart(text: string): StoredPiece {
  return storedPiece(Buffer.from(text));
}

const DOCUMENT_START = textPart('<?xml version="1.0" encoding="UTF-8"?>\n<plugin-repository>\n');
const DOCUMENT_END = textPart('</plugin-repository>\n');
const CATEGORY_END = textPart('</category>\n');

type Part = StoredPiece | FeedItem;

function isItem(part: Part): part is FeedItem {
  return 'fragment' in part;
}

/**
 * The `<plugin-repository>` document of a selection, gzip-compressed or not. Compressed, it is the items'
 * DEFLATE pieces one after another (src/ide-feed/deflate-pieces.ts): nothing is compressed per request.
 * Plain, each fragment is inflated as it is written. Either way the answer is written in chunks as the
 * connection takes them, so a feed of many megabytes holds little memory beyond the catalogue's own.
 */
export function pluginRepositoryAnswer(selection: FeedSelection, gzip: boolean): FeedAnswer {
  const parts: Part[] = [DOCUMENT_START];
  const categories = createHash('sha1');
  for (const group of selection.groups) {
    parts.push(textPart(`<category name="${escapeXml(group.category)}">\n`));
    categories.update(`${group.category}\n`);
    for (const item of group.items) parts.push(item);
    parts.push(CATEGORY_END);
  }
  parts.push(DOCUMENT_END);

  // One pass for the length and CRC of the text, and the ETag: the parts' CRCs and lengths (each item's
  // covers its fragment and its live numbers) and the category names.
  const fingerprint = new Uint32Array(parts.length * 2);
  let crc = 0;
  let textLength = 0;
  let deflatedLength = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    crc = combineCrc(crc, part.crc, isItem(part) ? part.shift : crcShift(part.length));
    textLength += part.length;
    deflatedLength += part.deflated.length;
    fingerprint[index * 2] = part.crc;
    fingerprint[index * 2 + 1] = part.length;
  }
  const hash = createHash('sha1').update(fingerprint).update(categories.digest()).digest('base64url');
  if (gzip) {
    const trailer = gzipTrailer(crc, textLength);
    const buffers = [GZIP_HEADER, ...parts.map((part) => part.deflated), FINAL_BLOCK, trailer];
    return {
      length: GZIP_HEADER.length + deflatedLength + FINAL_BLOCK.length + trailer.length,
      etag: `"${hash}-gzip"`,
      body: () => new ChunkedBody(buffers.length, (index) => buffers[index]!),
    };
  }
  return {
    length: textLength,
    etag: `"${hash}"`,
    body: () =>
      new ChunkedBody(parts.length, (index) => {
        const part = parts[index]!;
        return isItem(part)
          ? Buffer.concat([part.head.text, inflatePiece(part.fragment), part.tail.text])
          : part.text;
      }),
  };
}

/**
 * A body made of many small buffers, sent in chunks of about CHUNK_BYTES as the connection asks for more:
 * only the chunk being written is held besides the buffers themselves.
 */
class ChunkedBody extends Readable {
  private next = 0;

  constructor(
    private readonly count: number,
    private readonly buffer: (index: number) => Buffer,
  ) {
    super();
  }

  override _read(): void {
    const pending: Buffer[] = [];
    let size = 0;
    while (this.next < this.count && size < CHUNK_BYTES) {
      const buffer = this.buffer(this.next++);
      pending.push(buffer);
      size += buffer.length;
    }
    if (size > 0) this.push(Buffer.concat(pending, size));
    if (this.next >= this.count) this.push(null);
  }
}
