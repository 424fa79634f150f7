import {
  UNKNOWN_UPLOAD_ERROR,
  isUploadFailure,
  uploadStatusError,
  type UploadResult,
} from '@marketplace/core';
import { ApiError, NetworkError, isJsonContentType, originOf, type FailedCall } from './errors';
import { encodeMultipart } from './multipart';
import type { QueryParameters } from './query';
import type { ApiTransport, CallOptions } from './transport';

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Size of the whole request body, when known. */
  total: number | undefined;
}

export type UploadFieldValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface UploadOptions extends Omit<CallOptions, 'omitCredentials'> {
  /** The archive or image, sent in the field `file` (spec §7); several files go as several `file` parts. */
  file: Blob | readonly Blob[];
  /** The file name to send for a single file (instead of its own, or for a Blob without one). */
  fileName?: string;
  /** Other form fields, sent before the file; arrays repeat the field (tags are strings: core's tagsForUpdate). */
  fields?: Readonly<Record<string, UploadFieldValue>>;
  query?: QueryParameters;
  method?: 'POST' | 'PUT';
  /** Hears how much of the body has been sent. */
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * The spec's upload answer (§5): success with the server's data (warnings are allowed), or the validation
 * result of a failure. A status other than 2xx and 400 is not an outcome: it rejects with ApiError whose
 * message is 'Status code {code}: {text}'.
 */
export type UploadOutcome<T> =
  | { ok: true; data: T | undefined; result: UploadResult; message?: string }
  | { ok: false; result: UploadResult };

/** An answer whose body has been read, whichever way the upload travelled. */
interface RawAnswer {
  status: number;
  statusText: string;
  bodyText: string;
  contentType: string | null;
}

const UNKNOWN_RESULT: UploadResult = { errors: [UNKNOWN_UPLOAD_ERROR], warnings: [], isErrorUnknown: true };

function messagesIn(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const messages: string[] = [];
  for (const item of value) {
    if (typeof item === 'string' && item.trim() !== '') messages.push(item);
    else if (
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { message?: unknown }).message === 'string'
    ) {
      messages.push((item as { message: string }).message);
    }
  }
  return messages;
}

function parseObject(answer: RawAnswer): Record<string, unknown> | undefined {
  if (!isJsonContentType(answer.contentType) || answer.bodyText.trim() === '') return undefined;
  try {
    const value: unknown = JSON.parse(answer.bodyText);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The validation result a 400 answer carries: its `errors` and `warnings`, or its single `message` (`msg`
 * from older servers); an answer that says nothing readable is the unknown error.
 */
function validationResult(answer: RawAnswer): UploadResult {
  const body = parseObject(answer);
  if (!body) return UNKNOWN_RESULT;
  const errors = messagesIn(body['errors']);
  const warnings = messagesIn(body['warnings']) ?? [];
  if (errors !== undefined && errors.length > 0) return { errors, warnings, isErrorUnknown: false };
  const message = [body['message'], body['msg']].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  if (message !== undefined) return { errors: [message], warnings, isErrorUnknown: false };
  return { ...UNKNOWN_RESULT, warnings };
}

/** Reads an upload's answer in the spec's shape (§5, §8). */
export function readUploadAnswer<T>(call: FailedCall, answer: RawAnswer): UploadOutcome<T> {
  if (answer.status === 400) return { ok: false, result: validationResult(answer) };
  if (answer.status < 200 || answer.status >= 300) {
    const described = ApiError.fromAnswer(call, answer);
    const text = described.message.trim() === '' ? UNKNOWN_UPLOAD_ERROR : described.message;
    throw new ApiError({
      ...call,
      status: answer.status,
      statusText: answer.statusText,
      type: described.type,
      reportedStatus: described.reportedStatus,
      message: uploadStatusError(answer.status, text),
    });
  }
  if (answer.status === 204 || answer.bodyText.trim() === '') {
    return { ok: true, data: undefined, result: { errors: [], warnings: [], isErrorUnknown: false } };
  }
  if (!isJsonContentType(answer.contentType)) {
    return {
      ok: true,
      data: undefined,
      result: { errors: [], warnings: [], isErrorUnknown: false },
      message: answer.bodyText,
    };
  }
  const body = parseObject(answer);
  let data: unknown;
  try {
    data = JSON.parse(answer.bodyText);
  } catch (error) {
    throw new NetworkError(
      call,
      error,
      `The marketplace at ${originOf(call.url)} sent an answer that is not valid JSON.`,
    );
  }
  const result: UploadResult = {
    errors: messagesIn(body?.['errors']) ?? [],
    warnings: messagesIn(body?.['warnings']) ?? [],
    isErrorUnknown: false,
  };
  if (isUploadFailure(result)) return { ok: false, result };
  return { ok: true, data: data as T, result };
}

function buildForm(options: UploadOptions): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    if (value === undefined) continue;
    if (Array.isArray(value))
      for (const item of value as readonly (string | number)[]) form.append(name, String(item));
    else form.append(name, String(value));
  }
  const files: readonly Blob[] = options.file instanceof Blob ? [options.file] : options.file;
  for (const file of files) {
    const ownName = (file as Partial<File>).name;
    const name = files.length === 1 && options.fileName ? options.fileName : ownName || 'file';
    form.append('file', file, name);
  }
  return form;
}

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The upload was aborted.', 'AbortError');
}

/** Browsers report upload progress only through XMLHttpRequest. */
function sendWithXhr(
  call: FailedCall,
  form: FormData,
  authorization: string | undefined,
  options: UploadOptions,
  onProgress: (progress: UploadProgress) => void,
): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.open(call.method, call.url);
    xhr.setRequestHeader('accept', 'application/json');
    if (authorization) xhr.setRequestHeader('authorization', authorization);
    xhr.upload.onprogress = (event) =>
      onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : undefined });
    xhr.onload = () => {
      settle();
      resolve({
        status: xhr.status,
        statusText: xhr.statusText,
        bodyText: xhr.responseText,
        contentType: xhr.getResponseHeader('content-type'),
      });
    };
    xhr.onerror = () => {
      settle();
      reject(new NetworkError(call, undefined));
    };
    xhr.onabort = () => {
      settle();
      reject(abortReason(options.signal));
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(form);
  });
}

/** Outside browsers fetch can stream the body, so the bytes are counted as they are taken. */
async function sendStreamed(
  fetchImplementation: typeof globalThis.fetch,
  call: FailedCall,
  form: FormData,
  authorization: string | undefined,
  options: UploadOptions,
  onProgress: (progress: UploadProgress) => void,
): Promise<RawAnswer> {
  const encoded = encodeMultipart(form);
  let loaded = 0;
  onProgress({ loaded, total: encoded.length });
  const body = encoded.stream((bytes) => {
    loaded += bytes;
    onProgress({ loaded, total: encoded.length });
  });
  // The length is known, so the body goes with Content-Length (servers may refuse a too large one at once)
  // rather than chunked.
  const headers = new Headers({
    accept: 'application/json',
    'content-type': encoded.contentType,
    'content-length': String(encoded.length),
  });
  if (authorization) headers.set('authorization', authorization);
  const init: RequestInit & { duplex: 'half' } = {
    method: call.method,
    headers,
    body,
    duplex: 'half',
    credentials: 'omit',
  };
  if (options.signal) init.signal = options.signal;
  const response = await fetchImplementation(call.url, init);
  return {
    status: response.status,
    statusText: response.statusText,
    bodyText: await response.text(),
    contentType: response.headers.get('content-type'),
  };
}

async function sendPlain(
  fetchImplementation: typeof globalThis.fetch,
  call: FailedCall,
  form: FormData,
  authorization: string | undefined,
  options: UploadOptions,
): Promise<RawAnswer> {
  const headers = new Headers({ accept: 'application/json' });
  if (authorization) headers.set('authorization', authorization);
  const init: RequestInit = { method: call.method, headers, body: form, credentials: 'omit' };
  if (options.signal) init.signal = options.signal;
  const response = await fetchImplementation(call.url, init);
  return {
    status: response.status,
    statusText: response.statusText,
    bodyText: await response.text(),
    contentType: response.headers.get('content-type'),
  };
}

/**
 * Uploads a form: through XMLHttpRequest when progress is asked for in a browser, through fetch with a
 * counted stream elsewhere, through plain fetch when nobody listens. The token always goes along (spec §6).
 */
export async function uploadForm<T>(
  transport: ApiTransport,
  path: string,
  options: UploadOptions,
): Promise<UploadOutcome<T>> {
  const call: FailedCall = { method: options.method ?? 'POST', url: transport.url(path, options.query) };
  options.signal?.throwIfAborted();
  const authorization = await transport.authorization({ forceAuthorization: true });
  const form = buildForm(options);
  const { onProgress } = options;
  let answer: RawAnswer;
  try {
    if (onProgress && typeof XMLHttpRequest === 'function') {
      answer = await sendWithXhr(call, form, authorization, options, onProgress);
    } else if (onProgress) {
      answer = await sendStreamed(transport.fetch, call, form, authorization, options, onProgress);
    } else {
      answer = await sendPlain(transport.fetch, call, form, authorization, options);
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof NetworkError) throw error;
    throw new NetworkError(call, error);
  }
  return readUploadAnswer<T>(call, answer);
}
