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
  /** The whole body as buffers at hand (gzip answers), to hand to the connection at once. */
  buffers: readonly Buffer[] | undefined;
  body(): Readable;
}

/** Bytes gathered before each write of a plain answer. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Compressed bytes a segment of a document holds: a changed download count puts one segment together again,
 * not the whole answer (10 MB for 23,000 items, which on a busy machine took longer than the second between
 * two changes).
 */
const SEGMENT_BYTES = 256 * 1024;

/** A part of the document between items (the declaration, category tags, the end), with its CRC shift. */
interface TextPart extends StoredPiece {
  shift: number;
}

function textPart(text: string): TextPart {
  const piece = storedPiece(Buffer.from(text));
  return { ...piece, shift: crcShift(piece.length) };
}

const DOCUMENT_START = textPart('<?xml version="1.0" encoding="UTF-8"?>\n<plugin-repository>\n');
const DOCUMENT_END = textPart('</plugin-repository>\n');
const CATEGORY_END = textPart('</category>\n');

/** Category start tags by name, made once (a catalogue has a few hundred categories at most). */
const categoryStarts = new Map<string, TextPart>();
const MAX_CATEGORY_STARTS = 10_000;

function categoryStart(category: string): TextPart {
  let part = categoryStarts.get(category);
  if (!part) {
    if (categoryStarts.size >= MAX_CATEGORY_STARTS) categoryStarts.clear();
    part = textPart(`<category name="${escapeXml(category)}">\n`);
    categoryStarts.set(category, part);
  }
  return part;
}

type Part = TextPart | FeedItem;

function isItem(part: Part): part is FeedItem {
  return 'fragment' in part;
}

/**
 * Consecutive parts of a document: their DEFLATE pieces one after another in one buffer, the CRC-32 and
 * length of their text, and their ETag fingerprint (each part's CRC and length).
 */
interface Segment {
  parts: Part[];
  bytes: Buffer;
  crc: number;
  length: number;
  shift: number;
  fingerprint: Uint32Array;
}

function segment(parts: Part[]): Segment {
  const fingerprint = new Uint32Array(parts.length * 2);
  let crc = 0;
  let length = 0;
  let deflatedLength = 0;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    crc = combineCrc(crc, part.crc, part.shift);
    length += part.length;
    deflatedLength += part.deflated.length;
    fingerprint[index * 2] = part.crc;
    fingerprint[index * 2 + 1] = part.length;
  }
  const bytes = Buffer.allocUnsafeSlow(deflatedLength);
  let offset = 0;
  for (const part of parts) offset += part.deflated.copy(bytes, offset);
  return { parts, bytes, crc, length, shift: crcShift(length), fingerprint };
}

/**
 * The `<plugin-repository>` document of a selection, kept to answer many requests: compressed, it is the
 * items' DEFLATE pieces one after another (src/ide-feed/deflate-pieces.ts), copied once into segments of
 * about SEGMENT_BYTES, so nothing is compressed or copied per answer. When plugins' numbers change,
 * {@link FeedDocument.refresh} puts together only the segments that show them; answers given before keep
 * the segments they were given.
 */
export class FeedDocument {
  private segments: Segment[] = [];
  /** The segment each plugin's item is in. */
  private readonly segmentOf = new Map<number, number>();
  private readonly categoriesDigest: Buffer;
  private readonly answers: { gzip?: FeedAnswer; plain?: FeedAnswer } = {};
  /** Compressed bytes held. */
  bytes = 0;

  constructor(selection: FeedSelection) {
    const categories = createHash('sha1');
    let parts: Part[] = [DOCUMENT_START];
    let size = DOCUMENT_START.deflated.length;
    const add = (part: Part) => {
      if (size >= SEGMENT_BYTES) {
        this.segments.push(segment(parts));
        parts = [];
        size = 0;
      }
      if (isItem(part)) this.segmentOf.set(part.pluginId, this.segments.length);
      parts.push(part);
      size += part.deflated.length;
    };
    for (const group of selection.groups) {
      add(categoryStart(group.category));
      categories.update(`${group.category}\n`);
      for (const item of group.items) add(item);
      add(CATEGORY_END);
    }
    add(DOCUMENT_END);
    this.segments.push(segment(parts));
    this.categoriesDigest = categories.digest();
    for (const { bytes } of this.segments) this.bytes += bytes.length;
  }

  /**
   * Puts together again the segments that show any of these plugins, each item of theirs replaced by
   * `current(item)` (the element for the plugin's numbers now).
   */
  refresh(pluginIds: Iterable<number>, current: (item: FeedItem) => FeedItem): void {
    const stale = new Set<number>();
    for (const id of pluginIds) {
      const index = this.segmentOf.get(id);
      if (index !== undefined) stale.add(index);
    }
    if (stale.size === 0) return;
    const segments = [...this.segments];
    for (const index of stale) {
      const old = segments[index]!;
      this.bytes -= old.bytes.length;
      segments[index] = segment(old.parts.map((part) => (isItem(part) ? current(part) : part)));
      this.bytes += segments[index].bytes.length;
    }
    this.segments = segments;
    delete this.answers.gzip;
    delete this.answers.plain;
  }

  /** The document gzip-compressed or plain, as it is now. */
  answer(gzip: boolean): FeedAnswer {
    const kind = gzip ? 'gzip' : 'plain';
    return (this.answers[kind] ??= documentAnswer(this.segments, this.categoriesDigest, gzip));
  }
}

/** The answer for a selection, put together for this request only. */
export function pluginRepositoryAnswer(selection: FeedSelection, gzip: boolean): FeedAnswer {
  return new FeedDocument(selection).answer(gzip);
}

/**
 * The answer of a document's segments. The ETag covers the parts' CRCs and lengths (each item's covers its
 * fragment and its live numbers) and the category names; the CRC of the whole text is combined from the
 * segments'.
 */
function documentAnswer(segments: readonly Segment[], categoriesDigest: Buffer, gzip: boolean): FeedAnswer {
  const hash = createHash('sha1');
  let crc = 0;
  let textLength = 0;
  let deflatedLength = 0;
  for (const part of segments) {
    crc = combineCrc(crc, part.crc, part.shift);
    textLength += part.length;
    deflatedLength += part.bytes.length;
    hash.update(part.fingerprint);
  }
  const digest = hash.update(categoriesDigest).digest('base64url');
  if (gzip) {
    const buffers = [GZIP_HEADER, ...segments.map((part) => part.bytes), FINAL_BLOCK];
    buffers.push(gzipTrailer(crc, textLength));
    return {
      length: GZIP_HEADER.length + deflatedLength + FINAL_BLOCK.length + 8,
      etag: `"${digest}-gzip"`,
      buffers,
      body: () => new BuffersBody(buffers),
    };
  }
  const parts = segments.flatMap((part) => part.parts);
  return {
    length: textLength,
    etag: `"${digest}"`,
    buffers: undefined,
    body: () =>
      new ChunkedBody(parts.length, (index) => {
        const part = parts[index]!;
        return isItem(part)
          ? Buffer.concat([part.head.text, inflatePiece(part.fragment), part.tail.text])
          : part.text;
      }),
  };
}

/** Buffers already at hand, as a stream that hands them over one at a time as the connection takes them. */
class BuffersBody extends Readable {
  private next = 0;

  constructor(private readonly buffers: readonly Buffer[]) {
    super();
  }

  override _read(): void {
    if (this.next < this.buffers.length) this.push(this.buffers[this.next++]);
    if (this.next >= this.buffers.length) this.push(null);
  }
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
