/** The outcomes a UI can act on when talking to a local IDE fails, kept apart. */
export const IDE_BRIDGE_ERROR_KINDS = {
  /** Nothing answered: the IDE is not (or no longer) running. */
  noIde: 'no-ide',
  /** The IDE answered but refused: 403 (the visitor declined, or the site is not a trusted host), or it could not do it. */
  refused: 'refused',
  /** The IDE answered 429: too many requests this minute. */
  rateLimited: 'rate-limited',
  /**
   * An IDE holds its answer while it asks its user whether to trust this page (its "trust this host?"
   * dialog); the answer comes once they reply in the IDE.
   */
  awaitingConfirmation: 'awaiting-confirmation',
  /** Nobody answered the IDE's "trust this host?" question in time: the IDE is running, and still asking. */
  confirmationTimeout: 'confirmation-timeout',
  /** The browser does not let this page reach the visitor's machine (Local Network Access denied). */
  permissionDenied: 'permission-denied',
  /** The request failed another way: timeout, an answer no IDE gives. */
  network: 'network',
} as const;

export type IdeBridgeErrorKind = (typeof IDE_BRIDGE_ERROR_KINDS)[keyof typeof IDE_BRIDGE_ERROR_KINDS];

export interface IdeBridgeErrorDetails {
  /** The port of the IDE concerned, when there is one. */
  port?: number;
  /** The HTTP status the IDE answered, when it answered. */
  status?: number;
  cause?: unknown;
}

/** Every failure of the bridge; `kind` says what the UI should do, `message` is written for the visitor. */
export class IdeBridgeError extends Error {
  override readonly name = 'IdeBridgeError';
  readonly port: number | undefined;
  readonly status: number | undefined;

  constructor(
    readonly kind: IdeBridgeErrorKind,
    message: string,
    details: IdeBridgeErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.port = details.port;
    this.status = details.status;
  }
}

export function isIdeBridgeError(value: unknown): value is IdeBridgeError {
  return value instanceof IdeBridgeError;
}

/** Messages for the visitor; `ideName` is the IDE's own name, e.g. "IntelliJ IDEA 2025.2". */
export const ideBridgeMessages = {
  noIde: (ideName: string) => `${ideName} is not answering. Please make sure your IDE is still running.`,
  refused: (ideName: string) =>
    `${ideName} refused the request. Accept it in the IDE, or ask the site's administrator to add this site ` +
    'to the IDE option idea.api.install.hosts.trusted.',
  rateLimited: (ideName: string) =>
    `${ideName} received too many requests from this browser. Please try again in a minute.`,
  permissionDenied: () =>
    'Your browser does not allow this page to reach applications on your computer. Allow local network ' +
    "access in the site's settings, or install from the plugin page.",
  awaitingConfirmation: (ideName: string) =>
    `${ideName} is asking whether to trust this site. Answer it in the IDE.`,
  confirmationTimeout: (ideName: string) =>
    `${ideName} is still asking whether to trust this site. Answer it in the IDE, then try again.`,
  timeout: (ideName: string, ms: number) => `${ideName} did not answer within ${ms} ms.`,
  unexpected: (ideName: string, what: string) => `${ideName} gave an unexpected answer: ${what}.`,
} as const;
