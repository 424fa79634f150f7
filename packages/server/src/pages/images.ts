export type PageImageKind = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/**
 * What an uploaded image is, by its bytes (never by its name or the type the client claims): PNG, JPEG, GIF
 * or WebP. SVG is not accepted in pages: it is a document that can carry script, not just a picture.
 */
export function sniffPageImage(bytes: Buffer): PageImageKind | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return undefined;
}
