/**
 * multipart/form-data written out as a stream whose length is known before the first byte is sent, so an
 * upload outside the browser can report progress against the real total (fetch gives no upload progress).
 * The encoding is the one browsers use (WHATWG HTML, "multipart/form-data encoding algorithm").
 */

export interface EncodedForm {
  contentType: string;
  /** Exact length of the encoded body in bytes. */
  length: number;
  /** The body; `onChunk` hears the size of every chunk as the reader takes it. */
  stream(onChunk: (bytes: number) => void): ReadableStream<Uint8Array>;
}

const encoder = new TextEncoder();

/** Names and file names are quoted; the quote and line breaks in them are percent-encoded, as browsers do. */
function escapeHeaderValue(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/** Text values have every line break normalised to CRLF. */
function normaliseLineBreaks(value: string): string {
  return value.replace(/\r\n|\r|\n/g, '\r\n');
}

function randomBoundary(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `----MarketplaceFormBoundary${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

type Part = Uint8Array | Blob;

export function encodeMultipart(form: FormData, boundary: string = randomBoundary()): EncodedForm {
  const parts: Part[] = [];
  for (const [name, value] of form.entries()) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeHeaderValue(normaliseLineBreaks(name))}"`;
    if (typeof value === 'string') {
      parts.push(
        encoder.encode(`${head}\r\n\r\n`),
        encoder.encode(normaliseLineBreaks(value)),
        encoder.encode('\r\n'),
      );
    } else {
      head += `; filename="${escapeHeaderValue(value.name)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}`;
      parts.push(encoder.encode(`${head}\r\n\r\n`), value, encoder.encode('\r\n'));
    }
  }
  parts.push(encoder.encode(`--${boundary}--\r\n`));
  const length = parts.reduce((sum, part) => sum + (part instanceof Blob ? part.size : part.byteLength), 0);

  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    stream(onChunk) {
      let index = 0;
      let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            // One chunk per pull: with no queue ahead, counted bytes are bytes the sender has taken.
            for (;;) {
              if (reader) {
                const { done, value } = await reader.read();
                if (!done) {
                  onChunk(value.byteLength);
                  controller.enqueue(value);
                  return;
                }
                reader = undefined;
                continue;
              }
              const part = parts[index++];
              if (part === undefined) {
                controller.close();
                return;
              }
              if (part instanceof Blob) {
                reader = (part.stream() as ReadableStream<Uint8Array>).getReader();
                continue;
              }
              onChunk(part.byteLength);
              controller.enqueue(part);
              return;
            }
          },
          async cancel(reason) {
            await reader?.cancel(reason);
          },
        },
        { highWaterMark: 0 },
      );
    },
  };
}
