import { execFileSync } from 'node:child_process';
import { crc32, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  combineCrc,
  crcShift,
  deflatePiece,
  FINAL_BLOCK,
  GZIP_HEADER,
  gzipTrailer,
  inflatePiece,
  storedPiece,
} from '../../src/ide-feed/deflate-pieces';

/** A gzip file made of pieces, as the feed answer assembles it. */
function assemble(texts: readonly Buffer[], stored: readonly boolean[]): Buffer {
  let crc = 0;
  let length = 0;
  const pieces = texts.map((text, index) => (stored[index] ? storedPiece(text) : deflatePiece(text)));
  for (const piece of pieces) {
    crc = combineCrc(crc, piece.crc, crcShift(piece.length));
    length += piece.length;
  }
  return Buffer.concat([
    GZIP_HEADER,
    ...pieces.map((piece) => piece.deflated),
    FINAL_BLOCK,
    gzipTrailer(crc, length),
  ]);
}

describe('gzip answers assembled from pieces compressed beforehand', () => {
  it('combines CRC-32s exactly as computing the CRC of the joined text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), fc.uint8Array({ maxLength: 3000 }), (a, b) => {
        const combined = combineCrc(crc32(a), crc32(b), crcShift(b.length));
        expect(combined).toBe(crc32(Buffer.concat([a, b])));
      }),
    );
  });

  it('decompresses to the pieces joined, in any order and mix of compressed and stored pieces', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 400 }), fc.boolean()), { maxLength: 30 }),
        (parts) => {
          const texts = parts.map(([text]) => Buffer.from(text));
          const file = assemble(
            texts,
            parts.map(([, stored]) => stored),
          );
          expect(gunzipSync(file).equals(Buffer.concat(texts))).toBe(true);
        },
      ),
    );
  });

  it('splits stored text longer than a stored block can hold', () => {
    const long = Buffer.alloc(200_000, 'x');
    expect(gunzipSync(assemble([long], [true])).equals(long)).toBe(true);
  });

  it('gives back the text of a compressed piece', () => {
    const text = Buffer.from('<name>Git Toolbox</name>'.repeat(50));
    expect(inflatePiece(deflatePiece(text)).equals(text)).toBe(true);
  });

  it('is read by the gzip command as a valid file, its CRC checked', () => {
    const texts = ['<plugin-repository>\n', '<idea-plugin>'.repeat(100), '</plugin-repository>\n'].map(
      (text) => Buffer.from(text),
    );
    const file = assemble(texts, [true, false, true]);
    expect(execFileSync('gzip', ['-dc'], { input: file }).toString()).toBe(Buffer.concat(texts).toString());
    const corrupt = Buffer.from(file);
    corrupt.writeUInt32LE((corrupt.readUInt32LE(corrupt.length - 8) ^ 1) >>> 0, corrupt.length - 8);
    expect(() => execFileSync('gzip', ['-t'], { input: corrupt, stdio: 'pipe' })).toThrow();
  });
});
