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

type Part = { kind: 'text'; part: StoredPiece } | { kind: 'item'; item: FeedItem };

/**
 * The `<plugin-repository>` document of a selection, gzip-compressed or not. Compressed, it is the items'
 * DEFLATE pieces one after another (src/ide-feed/deflate-pieces.ts): nothing is compressed per request.
 * Plain, each fragment is inflated as it is written. Either way the answer is written in small chunks as the
 * connection takes them, so a feed of many megabytes holds little memory.
 */
export function pluginRepositoryAnswer(selection: FeedSelection, gzip: boolean): FeedAnswer {
  const parts: Part[] = [{ kind: 'text', part: DOCUMENT_START }];
  for (const group of selection.groups) {
    parts.push({ kind: 'text', part: textPart(`<category name="${escapeXml(group.category)}">\n`) });
    for (const item of group.items) parts.push({ kind: 'item', item });
    parts.push({ kind: 'text', part: CATEGORY_END });
  }
  parts.push({ kind: 'text', part: DOCUMENT_END });

  // One pass for the length, the CRC of the text and the ETag (the fragments' digests and live numbers).
  const fingerprint = createHash('sha1');
  let crc = 0;
  let textLength = 0;
  let deflatedLength = 0;
  for (const entry of parts) {
    if (entry.kind === 'text') {
      const { part } = entry;
      crc = combineCrc(crc, part.crc, crcShift(part.length));
      textLength += part.length;
      deflatedLength += part.deflated.length;
      fingerprint.update(part.text);
    } else {
      const { item } = entry;
      crc = combineCrc(crc, item.crc, item.shift);
      textLength += item.length;
      deflatedLength += item.head.deflated.length + item.fragment.deflated.length + item.tail.deflated.length;
      fingerprint.update(`${item.digest} ${item.downloads} ${item.rating}\n`);
    }
  }
  const hash = fingerprint.digest('base64url');
  if (gzip) {
    const trailer = gzipTrailer(crc, textLength);
    return {
      length: GZIP_HEADER.length + deflatedLength + FINAL_BLOCK.length + trailer.length,
      etag: `"${hash}-gzip"`,
      body: () => Readable.from(chunked(gzipBuffers(parts, trailer))),
    };
  }
  return { length: textLength, etag: `"${hash}"`, body: () => Readable.from(chunked(plainBuffers(parts))) };
}

function* gzipBuffers(parts: readonly Part[], trailer: Buffer): Generator<Buffer> {
  yield GZIP_HEADER;
  for (const entry of parts) {
    if (entry.kind === 'text') {
      yield entry.part.deflated;
    } else {
      yield entry.item.head.deflated;
      yield entry.item.fragment.deflated;
      yield entry.item.tail.deflated;
    }
  }
  yield FINAL_BLOCK;
  yield trailer;
}

function* plainBuffers(parts: readonly Part[]): Generator<Buffer> {
  for (const entry of parts) {
    if (entry.kind === 'text') {
      yield entry.part.text;
    } else {
      yield entry.item.head.text;
      yield inflatePiece(entry.item.fragment);
      yield entry.item.tail.text;
    }
  }
}

/** Joins small buffers into chunks of about CHUNK_BYTES, produced only as the reader asks for them. */
function* chunked(buffers: Iterable<Buffer>): Generator<Buffer> {
  let pending: Buffer[] = [];
  let size = 0;
  for (const buffer of buffers) {
    pending.push(buffer);
    size += buffer.length;
    if (size >= CHUNK_BYTES) {
      yield Buffer.concat(pending, size);
      pending = [];
      size = 0;
    }
  }
  if (size > 0) yield Buffer.concat(pending, size);
}
