import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { addAbortSignal, pipeline, type Readable, Transform } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { formatBytes } from '../../archive/limits';
import { RefusedAddressError, type AddressRule } from './addresses';

/** A fetch from an upstream that failed: the message is a sentence for the administrator. */
export class MirrorFetchError extends Error {
  override name = 'MirrorFetchError';
}

const USER_AGENT = 'marketplace-mirror/1';

interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** The job's signal: aborted when this node lost the job (another may run it now). */
  signal?: AbortSignal;
  accept: string;
  /** Where the upstream's fetches may connect (`addressRuleFor`). */
  rule: AddressRule;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}

/** The first code in an error's cause chain (ECONNREFUSED, UND_ERR_SOCKET...). */
function causeCode(error: unknown): string | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const name = (current as { name?: unknown }).name;
    if (name === 'TimeoutError') return true;
  }
  return false;
}

function isAbort(error: unknown): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { name?: unknown }).name === 'AbortError') return true;
  }
  return false;
}

/** What went wrong with a request, as a sentence that names the address. */
function describeFailure(
  url: URL,
  error: unknown,
  timeoutMs: number,
  progress?: { received: number; expected: number | undefined },
): string {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if (current instanceof MirrorFetchError || current instanceof RefusedAddressError) return current.message;
  }
  if (isTimeout(error)) {
    return `${url.href} did not answer in full within ${seconds(timeoutMs)}${progress ? ` (${formatBytes(progress.received)} received)` : ''}.`;
  }
  if (isAbort(error)) return `Fetching ${url.href} was stopped (the job was handed to another server).`;
  const code = causeCode(error);
  if (progress) {
    const of = progress.expected === undefined ? '' : ` of ${progress.expected}`;
    return `The download of ${url.href} was cut off after ${progress.received}${of} bytes (${code ?? 'connection closed'}).`;
  }
  switch (code) {
    case 'ECONNREFUSED':
      return `Nothing answers at ${url.host} (connection refused).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host ${url.hostname} cannot be found.`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `${url.host} closed the connection before answering ${url.href}.`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `${url.href} could not be fetched: ${code ?? message}.`;
    }
  }
}

/** Redirects one fetch follows (fetch's own limit is 20; feeds and downloads need one or two). */
const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The error to describe: the signal's reason (time-out, job lost) when it fired, else the error itself. */
function failureOf(error: unknown, signal: AbortSignal): unknown {
  return signal.aborted ? (signal.reason ?? error) : error;
}

/** The response headers as fetch's `Headers`. */
function headersOf(message: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, one);
    }
  }
  return headers;
}

/** One GET, no redirect followed; the address rule is checked before and at the connection's look-up. */
function requestOnce(url: URL, limits: FetchLimits, signal: AbortSignal): Promise<IncomingMessage> {
  limits.rule.check(url);
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      headers: { accept: limits.accept, 'accept-encoding': 'gzip, deflate, br', 'user-agent': USER_AGENT },
      // A connection of its own: a kept-alive socket would skip the look-up that checks the address.
      agent: false,
      lookup: limits.rule.lookupFor(url),
      signal,
    });
    request.once('response', resolve);
    // Kept after the answer: a connection cut mid-body errors here too (the body's reader reports it).
    request.on('error', reject);
    request.end();
  });
}

/** The body as its sender meant it: decompressed as fetch would (the length check is on the sent bytes). */
function decodedBody(url: URL, response: IncomingMessage): Readable {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return response;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) {
    response.destroy();
    throw new MirrorFetchError(`${url.href} answered in an encoding this server cannot read (${encoding}).`);
  }
  return pipeline(response, decoder, () => undefined);
}

/**
 * The answer to a GET of `url`, its redirects followed, each hop held to the upstream's address rule
 * (`addresses.ts`); an HTTP error or a declared length past `maxBytes` is a `MirrorFetchError`.
 */
async function start(
  url: URL,
  limits: FetchLimits,
): Promise<{ body: Readable; headers: Headers; signal: AbortSignal }> {
  const signal = limits.signal
    ? AbortSignal.any([AbortSignal.timeout(limits.timeoutMs), limits.signal])
    : AbortSignal.timeout(limits.timeoutMs);
  let current = url;
  let response: IncomingMessage;
  for (let redirects = 0; ; redirects += 1) {
    try {
      response = await requestOnce(current, limits, signal);
    } catch (error) {
      const message = describeFailure(current, failureOf(error, signal), limits.timeoutMs);
      throw new MirrorFetchError(current === url ? message : `${message} (${url.href} redirected there)`);
    }
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) break;
    response.destroy();
    if (redirects === MAX_REDIRECTS) {
      throw new MirrorFetchError(`${url.href} redirected more than ${MAX_REDIRECTS} times.`);
    }
    try {
      current = new URL(location, current);
    } catch {
      throw new MirrorFetchError(`${current.href} redirected to "${location}", which is not an address.`);
    }
  }
  // A time-out or a lost job while the body is read stops the read.
  addAbortSignal(signal, response);
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 299) {
    response.destroy();
    throw new MirrorFetchError(
      `${url.href} answered HTTP ${status} ${response.statusMessage ?? ''}`.trim() + '.',
    );
  }
  const headers = headersOf(response);
  const declared = Number(headers.get('content-length') ?? Number.NaN);
  // A length is only trusted for the body as sent: a compressed body is larger once inflated.
  if (!headers.get('content-encoding') && declared > limits.maxBytes) {
    response.destroy();
    throw new MirrorFetchError(
      `${url.href} is ${formatBytes(declared)}, more than the ${formatBytes(limits.maxBytes)} allowed.`,
    );
  }
  return { body: decodedBody(url, response), headers, signal };
}

/**
 * The text of a feed: time-limited (body included) and cut off past `maxBytes` of decompressed text, so an
 * upstream that answers without end or very slowly costs at most that.
 */
export async function fetchText(url: URL, limits: FetchLimits): Promise<string> {
  const { body, signal } = await start(url, limits);
  const chunks: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      received += chunk.byteLength;
      if (received > limits.maxBytes) {
        throw new MirrorFetchError(
          `The feed at ${url.href} is larger than ${formatBytes(limits.maxBytes)} (MIRROR_FEED_MAX_MB).`,
        );
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    body.destroy();
    throw new MirrorFetchError(describeFailure(url, failureOf(error, signal), limits.timeoutMs));
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An archive downloaded to a temporary file, hashed and measured on the way. */
export interface DownloadedFile {
  path: string;
  sha256: string;
  size: number;
  /** The SHA-256 the upstream declared in `Repr-Digest` / `Digest` (hex), when it did. */
  declaredSha256: string | undefined;
}

/**
 * `Repr-Digest: sha-256=:<base64>:` (RFC 9530) or the older `Digest: SHA-256=<base64>` (RFC 3230), as hex; our
 * own download route sends the first.
 */
export function declaredSha256(headers: Headers): string | undefined {
  for (const name of ['repr-digest', 'content-digest', 'digest']) {
    const value = headers.get(name);
    if (!value) continue;
    for (const part of value.split(',')) {
      const match = /^\s*sha-256\s*=\s*:?([A-Za-z0-9+/=]+):?\s*$/i.exec(part);
      if (match?.[1]) {
        const bytes = Buffer.from(match[1], 'base64');
        if (bytes.length === 32) return bytes.toString('hex');
      }
    }
  }
  return undefined;
}

/**
 * Streams an archive into `directory` as `upload-<random>.part` (the name the orphan sweep clears when a
 * process dies mid-download), hashing it; stops past `maxBytes`, at the time limit, or when the connection
 * ends before the length the upstream announced. On any failure the partial file is removed.
 */
export async function downloadFile(
  url: URL,
  directory: string,
  limits: Omit<FetchLimits, 'accept'>,
): Promise<DownloadedFile> {
  const { body, headers, signal } = await start(url, {
    ...limits,
    accept: 'application/zip, application/java-archive, */*',
  });
  const path = join(directory, `upload-${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  const lengthHeader = headers.get('content-encoding') ? null : headers.get('content-length');
  const expected = lengthHeader === null ? undefined : Number(lengthHeader);
  let received = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limits.maxBytes) {
        callback(
          new MirrorFetchError(
            `${url.href} is larger than ${formatBytes(limits.maxBytes)}, the largest plugin archive accepted (MAX_UPLOAD_MB).`,
          ),
        );
        return;
      }
      hash.update(chunk);
      callback(null, chunk);
    },
  });
  try {
    await pipelineAsync(body, meter, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    if (expected !== undefined && Number.isFinite(expected) && received !== expected) {
      throw new MirrorFetchError(`The download of ${url.href} ended after ${received} of ${expected} bytes.`);
    }
  } catch (error) {
    await rm(path, { force: true });
    body.destroy();
    throw new MirrorFetchError(
      describeFailure(url, failureOf(error, signal), limits.timeoutMs, { received, expected }),
    );
  }
  return {
    path,
    sha256: hash.digest('hex'),
    size: received,
    declaredSha256: declaredSha256(headers),
  };
}
