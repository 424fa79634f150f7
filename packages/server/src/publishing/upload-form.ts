import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { UploadResult } from '@marketplace/core';
import { receiveUpload, UploadTooLargeError, type ReceivedUpload } from '../archive';

/** An upload refused: the status and the validation result the answer carries. */
export class UploadRefusal extends Error {
  override name = 'UploadRefusal';
  readonly result: UploadResult;

  constructor(
    readonly statusCode: 400 | 403 | 404 | 409,
    messageOrResult: string | UploadResult,
  ) {
    const result =
      typeof messageOrResult === 'string'
        ? { errors: [messageOrResult], warnings: [], isErrorUnknown: false }
        : messageOrResult;
    super(result.errors.join(' ') || 'The upload was refused.');
    this.result = result;
  }

  /**
   * The answer body: the spec's validation result, with `message` (and `msg`, which older clients read) as
   * the vendor's REST API gives it.
   */
  body(): UploadResult & { message: string; msg: string } {
    return { message: this.message, msg: this.message, ...this.result };
  }
}

/**
 * The text parts of an upload form. A name may come more than once (the vendor's REST client sends one
 * `tags` part per tag), so every value is kept, in arrival order.
 */
export class FormFields {
  private readonly values = new Map<string, string[]>();

  add(name: string, value: string): void {
    const list = this.values.get(name);
    if (list) list.push(value);
    else this.values.set(name, [value]);
  }

  /** The first value sent under this name. */
  get(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  /** Every value sent under this name. */
  getAll(name: string): readonly string[] {
    return this.values.get(name) ?? [];
  }
}

/**
 * A text part's value as text. Parts sent as `application/json` (the vendor's REST client sends numbers and
 * booleans such as `pluginId` and `isHidden` that way) arrive parsed: a number or boolean becomes its text,
 * an array gives each of its elements, null gives nothing. An object cannot be a form value.
 */
function partValues(name: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (value === null) return [];
  if (Array.isArray(value) && value.every((item) => ['string', 'number', 'boolean'].includes(typeof item))) {
    return value.map(String);
  }
  throw new UploadRefusal(400, `The part "${name}" must be text, a number or true/false.`);
}

export interface UploadForm {
  /** The archive, saved to a temporary file (undefined when the form had no `file` part). */
  file: (ReceivedUpload & { fileName: string }) | undefined;
  fields: FormFields;
  /** Removes the temporary file; call it whatever happens. */
  dispose(): Promise<void>;
}

const ARCHIVE_NAME = /\.(zip|jar)$/i;
const MAX_FIELD_BYTES = 64 * 1024;

/**
 * Reads a multipart upload form in arrival order: the `file` part is streamed to a temporary file (hashed,
 * cut off past `maxBytes`), the text fields are kept, each read by its content type (text, or JSON). Clients
 * send the file before or after the fields (`curl -F file=@x -F xmlId=y` sends it first): fields sent first
 * are shown to `beforeFile`, so a refusal comes before the archive is read; otherwise it comes after.
 */
export async function readUploadForm(
  request: FastifyRequest,
  options: {
    maxBytes: number;
    tempDir: string;
    /**
     * Called with the fields that came before the file, as its part begins: an upload the uploader may not
     * make is refused there (throw an UploadRefusal), before a byte of the archive is read or stored.
     */
    beforeFile?: (fields: FormFields) => Promise<void>;
  },
): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new UploadRefusal(400, 'Send the archive as multipart/form-data, in a part named "file".');
  }
  const fields = new FormFields();
  let file: UploadForm['file'];
  const dispose = async () => {
    if (file) await rm(file.path, { force: true });
  };
  try {
    const parts = request.parts({
      limits: {
        // One byte more than allowed, so receiveUpload sees the excess and refuses it.
        fileSize: options.maxBytes + 1,
        files: 1,
        fields: 32,
        fieldSize: MAX_FIELD_BYTES,
        parts: 40,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        for (const value of partValues(part.fieldname, part.value)) fields.add(part.fieldname, value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw new UploadRefusal(400, `Unexpected file part "${part.fieldname}": send the archive as "file".`);
      }
      const fileName = part.filename || 'plugin.zip';
      if (!ARCHIVE_NAME.test(fileName)) {
        part.file.resume();
        throw new UploadRefusal(
          400,
          `"${fileName}" is not a plugin archive: upload the .zip or .jar your build produced.`,
        );
      }
      await options.beforeFile?.(fields);
      const received = await receiveUpload(part.file, {
        maxBytes: options.maxBytes,
        tempDir: options.tempDir,
      });
      file = { ...received, fileName };
    }
  } catch (error) {
    await dispose();
    if (error instanceof UploadRefusal) throw error;
    if (error instanceof UploadTooLargeError) throw new UploadRefusal(400, error.toUploadResult());
    const status = (error as { statusCode?: unknown }).statusCode;
    if ((typeof status === 'number' && status >= 400 && status < 500) || isMalformedMultipart(error)) {
      throw new UploadRefusal(400, `The upload form could not be read: ${(error as Error).message}.`);
    }
    throw error;
  }
  return { file, fields, dispose };
}

/**
 * The multipart parser's (busboy's) own refusals of a malformed body carry no status: a content type
 * without its boundary, a body cut short. They are the client's to fix, not a server error.
 */
export function isMalformedMultipart(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return (
    typeof message === 'string' &&
    /^(Multipart: Boundary not found|Malformed|Unexpected end of (form|multipart data)|Part terminated early)/.test(
      message,
    )
  );
}

/** A form flag: "true"/"1"/"yes"/"on" (any case) is true, anything else false. */
export function formFlag(value: string | undefined): boolean {
  return value !== undefined && ['true', '1', 'yes', 'on'].includes(value.trim().toLowerCase());
}
