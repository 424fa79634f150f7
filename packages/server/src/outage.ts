/**
 * Failures that are nobody's request's fault: the database cannot be reached (PostgreSQL restarted, its
 * connections cut, a failover), the S3 bucket of the file store cannot be reached, or the data disk is full. The error handler answers them 503 or 507 with a
 * message that says what happened, instead of a 500, and the request may be tried again: see
 * packages/server/faults/ for the suite that cuts connections and fills the disk under traffic.
 */

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database cannot be reached right now, so this request was not completed. Please try again in a moment.';

export const DISK_FULL_MESSAGE =
  "The server's storage is full, so nothing was stored. Please try again later; the administrator has been told in the server log.";

export const FILE_STORE_UNAVAILABLE_MESSAGE =
  'The file storage cannot be reached right now, so this request was not completed. Please try again in a moment.';

/**
 * SQLSTATEs of a lost or refused database connection: class 08 (connection exception), 57P01-57P03 (the
 * server shutting down, crashed, or not accepting connections yet), 53300 (too many connections).
 */
const DATABASE_STATES = /^(08\d{3}|57P0[123]|53300)$/;

/** What node-postgres and pg-pool say when the connection went away under them (they set no code). */
const DATABASE_MESSAGES = [
  /^Connection terminated/,
  /connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection terminated due to connection timeout/,
];

/** Socket errors of a connection to the database (a connection refused or reset on the way). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

function* causes(error: unknown): Generator<{ code?: unknown; message?: unknown; syscall?: unknown }> {
  const seen = new Set<unknown>();
  for (let current = error; current && typeof current === 'object';) {
    if (seen.has(current)) return;
    seen.add(current);
    yield current as { code?: unknown; message?: unknown; syscall?: unknown };
    // AggregateError (a connection tried on several addresses) carries its errors in `errors`.
    const aggregate = (current as { errors?: unknown }).errors;
    if (Array.isArray(aggregate)) for (const inner of aggregate) yield* causes(inner);
    current = (current as { cause?: unknown }).cause;
  }
}

/** Whether the error (or one it was caused by) says the database connection was lost or refused. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const cause of causes(error)) {
    if (typeof cause.code === 'string' && DATABASE_STATES.test(cause.code)) return true;
    if (
      typeof cause.message === 'string' &&
      DATABASE_MESSAGES.some((pattern) => pattern.test(cause.message as string))
    )
      return true;
    if (typeof cause.code === 'string' && SOCKET_CODES.has(cause.code) && isFromDatabase(error)) return true;
  }
  return false;
}

/**
 * A socket error counts only when it came through a query (Drizzle wraps it as "Failed query: ...") or
 * while connecting: the server makes other outgoing connections (webhooks, an identity provider) whose
 * failures are not the database's.
 */
function isFromDatabase(error: unknown): boolean {
  for (const cause of causes(error)) {
    if (typeof cause.message === 'string' && cause.message.startsWith('Failed query')) return true;
    if ((error as { name?: unknown }).name === 'DrizzleQueryError') return true;
    if (cause.syscall === 'connect') return true;
  }
  return false;
}

/**
 * Whether the error (or one it was caused by) says the file store could not be reached: the S3 store wraps
 * network errors, time-outs and 5xx answers of the bucket in a FileStoreUnavailableError.
 */
export function isFileStoreUnavailable(error: unknown): boolean {
  for (const cause of causes(error)) {
    if ((cause as { name?: unknown }).name === 'FileStoreUnavailableError') return true;
  }
  return false;
}

/** Whether the error (or one it was caused by) is a full disk or an exhausted quota. */
export function isDiskFull(error: unknown): boolean {
  for (const cause of causes(error)) {
    if (cause.code === 'ENOSPC' || cause.code === 'EDQUOT') return true;
  }
  return false;
}

export interface Outage {
  status: 503 | 507;
  message: string;
  /** Seconds the client is asked to wait before trying again (Retry-After). */
  retryAfterSeconds: number;
}

/** The answer to a failure that is an outage, or undefined for any other error. */
export function outageOf(error: unknown): Outage | undefined {
  // First: the socket error inside a FileStoreUnavailableError would otherwise read as the database's.
  if (isFileStoreUnavailable(error)) {
    return { status: 503, message: FILE_STORE_UNAVAILABLE_MESSAGE, retryAfterSeconds: 5 };
  }
  if (isDatabaseUnavailable(error)) {
    return { status: 503, message: DATABASE_UNAVAILABLE_MESSAGE, retryAfterSeconds: 5 };
  }
  if (isDiskFull(error)) return { status: 507, message: DISK_FULL_MESSAGE, retryAfterSeconds: 60 };
  return undefined;
}
