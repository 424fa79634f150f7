/**
 * Reading an error report the way the IDE's ITNProxy sends it: a form (`application/x-www-form-urlencoded;
 * charset=UTF-8`), gzipped with `Content-Encoding: gzip`, fields as URLEncoder writes them. Plain (not
 * gzipped) forms are read too. Everything is bounded: the body on the wire, the body once decompressed
 * (zlib stops at the cap, so a gzip bomb costs no more than the cap), and each field.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { EXCEPTION_LIMITS, normaliseStackTrace, type NormalisedStackTrace } from '@marketplace/core';
import { ApiError } from '../../plugins/app/errors';

const gunzipAsync = promisify(gunzip);

/** What is taken from a report; the rest of the form (login, password, e-mail, attachments...) is read past. */
export interface IncomingReport {
  /** The plugin.xml id (`plugin.id`). */
  pluginXmlId: string;
  pluginVersion: string;
  stackTrace: string;
  normalised: NormalisedStackTrace;
  message: string;
  /** The user's own words (`error.description`). */
  comment: string;
  /** The IDE build with its product code: `IU-241.14494.240`. */
  build: string;
  /** The IDE and its version: `IntelliJ IDEA 2024.1`. */
  productName: string;
  /** `macOS 14.4.1 (aarch64)`. */
  os: string;
  /** `21.0.2+13-b375.1 (JetBrains s.r.o.)`. */
  java: string;
  lastAction: string;
  attachmentNames: string[];
  automatic: boolean;
  /** The IDE's installation id (`host.id`); hashed before it is stored, never kept as sent. */
  hostId: string;
}

const MEGABYTE = 1024 * 1024;

/** Characters PostgreSQL text cannot hold (NUL) and controls no report needs; tabs and line breaks stay. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f]/;

function clean(text: string, maxLength: number): string {
  const cleaned = text.replace(CONTROL_CHARACTERS, '').trim();
  return cleaned.length > maxLength ? `${cleaned.slice(0, maxLength - 1)}…` : cleaned;
}

/** A field as text, its controls removed and cut to `maxLength` (the default for short fields). */
function field(form: URLSearchParams, name: string, maxLength: number = EXCEPTION_LIMITS.fieldChars): string {
  return clean(form.get(name) ?? '', maxLength);
}

function joined(...parts: string[]): string {
  return parts.filter((part) => part !== '').join(' ');
}

/** Decompresses a gzipped body, refusing to produce more than the cap. */
async function gunzipBounded(body: Buffer): Promise<Buffer> {
  try {
    return await gunzipAsync(body, { maxOutputLength: EXCEPTION_LIMITS.decompressedBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new ApiError(
        'payloadTooLarge',
        `The report is larger than ${EXCEPTION_LIMITS.decompressedBytes / MEGABYTE} MB once decompressed, ` +
          'far more than an error report needs, so it was not kept.',
      );
    }
    throw new ApiError(
      'badRequest',
      'The report says it is gzipped (Content-Encoding: gzip) but its body is not valid gzip data.',
    );
  }
}

/** gzip's first two bytes: a form in URL encoding never starts with them. */
function looksGzipped(body: Buffer): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/**
 * The body as form text: gunzipped when the request says so (or when it is gzip without saying so), then
 * read as UTF-8; anything else is refused with a sentence saying why.
 */
export async function decodeReportBody(
  body: Buffer | undefined,
  contentEncoding: string | undefined,
): Promise<string> {
  if (body === undefined || body.length === 0) {
    throw new ApiError('badRequest', 'The report is empty: the IDE sends its error report as a form.');
  }
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  let bytes: Buffer;
  if (
    encoding === 'gzip' ||
    encoding === 'x-gzip' ||
    ((encoding === '' || encoding === 'identity') && looksGzipped(body))
  ) {
    bytes = await gunzipBounded(body);
  } else if (encoding === '' || encoding === 'identity') {
    if (body.length > EXCEPTION_LIMITS.decompressedBytes) {
      throw new ApiError(
        'payloadTooLarge',
        'The report is too large to be an error report, so it was not kept.',
      );
    }
    bytes = body;
  } else {
    throw new ApiError(
      'badRequest',
      `Reports encoded as "${encoding.slice(0, 40)}" cannot be read: send them gzipped, as the IDE does, or plain.`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(
      'badRequest',
      'The report is not readable: it is neither a gzipped nor a plain UTF-8 form as the IDE sends.',
    );
  }
}

/** Reads the fields of a decoded form into a report, or says what is missing or too large. */
export function readReportForm(text: string): IncomingReport {
  if (!text.includes('=')) {
    throw new ApiError('badRequest', 'The report is not a form of name=value fields as the IDE sends.');
  }
  const form = new URLSearchParams(text);
  const pluginXmlId = (form.get('plugin.id') ?? '').trim();
  if (pluginXmlId === '') {
    throw new ApiError(
      'badRequest',
      'The report does not name a plugin (plugin.id). This marketplace takes error reports of its plugins only.',
    );
  }
  if (pluginXmlId.length > EXCEPTION_LIMITS.pluginIdChars || ANY_CONTROL.test(pluginXmlId)) {
    throw new ApiError('badRequest', 'The plugin id (plugin.id) of the report is not a plugin id.');
  }
  const rawTrace = form.get('error.stacktrace') ?? '';
  if (rawTrace.length > EXCEPTION_LIMITS.stackTraceChars) {
    throw new ApiError(
      'payloadTooLarge',
      `The stack trace is longer than ${EXCEPTION_LIMITS.stackTraceChars / MEGABYTE} MB of text, far more ` +
        'than a real one, so the report was not kept.',
    );
  }
  const stackTrace = rawTrace.replace(CONTROL_CHARACTERS, '').replace(/\r\n?/g, '\n').trim();
  if (stackTrace === '') {
    throw new ApiError(
      'badRequest',
      'The report has no stack trace (error.stacktrace), so it cannot be grouped.',
    );
  }
  const normalised = normaliseStackTrace(stackTrace, pluginXmlId);
  if (!normalised) {
    throw new ApiError(
      'badRequest',
      'The stack trace (error.stacktrace) is not a Java stack trace: no line of it names an exception class.',
    );
  }
  const productCode = field(form, 'app.product.code', 10);
  const buildNumber = field(form, 'app.build.number');
  const build =
    field(form, 'app.build') || (productCode && buildNumber ? `${productCode}-${buildNumber}` : buildNumber);
  const osArch = field(form, 'os.cpu.arch', 40);
  const javaVendor = field(form, 'java.vm.vendor', 100);
  return {
    pluginXmlId,
    pluginVersion: field(form, 'plugin.version', 100),
    stackTrace,
    normalised,
    message: field(form, 'error.message', EXCEPTION_LIMITS.messageChars),
    comment: field(form, 'error.description', EXCEPTION_LIMITS.commentChars),
    build,
    productName: joined(
      field(form, 'app.name.full', 100) || field(form, 'app.name', 100),
      field(form, 'app.name.version', 40),
    ),
    os: joined(field(form, 'os.name', 60), field(form, 'os.version', 60), osArch ? `(${osArch})` : ''),
    java: joined(field(form, 'java.version', 80), javaVendor ? `(${javaVendor})` : ''),
    lastAction: field(form, 'last.action'),
    attachmentNames: form
      .getAll('attachment.name')
      .slice(0, EXCEPTION_LIMITS.attachmentNames)
      .map((name) => clean(name, EXCEPTION_LIMITS.fieldChars))
      .filter((name) => name !== ''),
    automatic: field(form, 'report.automatic') === 'true',
    hostId: field(form, 'host.id', 100),
  };
}
