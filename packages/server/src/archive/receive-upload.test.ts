import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UploadTooLargeError, receiveUpload } from './receive-upload';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'receive-upload-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function chunks(...parts: (string | Buffer)[]): Readable {
  return Readable.from(parts.map((part) => Buffer.from(part)));
}

describe('receiveUpload', { timeout: 30_000 }, () => {
  it('writes the stream to a temporary file and returns its size and SHA-256', async () => {
    const received = await receiveUpload(chunks('PK\u0003\u0004', 'rest of the archive'), {
      maxBytes: 1024,
      tempDir: folder,
    });
    const bytes = Buffer.from('PK\u0003\u0004rest of the archive');
    expect(received.size).toBe(bytes.length);
    expect(received.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(received.path.startsWith(folder)).toBe(true);
    expect(await readFile(received.path)).toEqual(bytes);
  });

  it('accepts an upload of exactly the limit', async () => {
    const received = await receiveUpload(chunks(Buffer.alloc(600), Buffer.alloc(424)), {
      maxBytes: 1024,
      tempDir: folder,
    });
    expect(received.size).toBe(1024);
  });

  it('refuses an upload past the limit and leaves nothing behind', async () => {
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += 64 * 1024;
        this.push(Buffer.alloc(64 * 1024, 1));
      },
    });
    const failure = receiveUpload(endless, { maxBytes: 1024 * 1024, tempDir: folder });
    await expect(failure).rejects.toThrow(UploadTooLargeError);
    await expect(failure).rejects.toThrow(
      'The upload is larger than 1 MB, the largest plugin archive accepted.',
    );
    expect(produced).toBeLessThan(4 * 1024 * 1024);
    expect(await readdir(folder)).toEqual([]);
    expect(new UploadTooLargeError(400 * 1024 * 1024).toUploadResult()).toEqual({
      errors: ['The upload is larger than 400 MB, the largest plugin archive accepted.'],
      warnings: [],
      isErrorUnknown: false,
    });
  });

  it('removes the partial file when the client goes away', async () => {
    const aborted = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('aborted by client'));
      },
    });
    await expect(receiveUpload(aborted, { maxBytes: 1024 * 1024, tempDir: folder })).rejects.toThrow(
      'aborted by client',
    );
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses a limit that is not a positive integer', async () => {
    await expect(receiveUpload(chunks('x'), { maxBytes: -1, tempDir: folder })).rejects.toThrow(RangeError);
  });
});
