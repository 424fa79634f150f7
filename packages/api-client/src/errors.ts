import { describeFailedResponse, errorNotification, type ErrorNotification } from '@marketplace/core';

/** What every error of this client says about the call that failed. */
export interface FailedCall {
  method: string;
  /** The absolute URL that was called. */
  url: string;
}

/**
 * The server answered with an HTTP error status. `message` is what people may read (spec §8: the body's
 * message cut to 1000 characters, or the status text); `status` is the HTTP status code.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  /** The HTTP status code of the answer. */
  readonly status: number;
  readonly statusText: string;
  /** The body's `type`, lower-cased ('warning' when it names none). */
  readonly type: string;
  /** Spec §8's status: the body's `type` when it names one, otherwise the HTTP status code. */
  readonly reportedStatus: string | number;
  readonly method: string;
  readonly url: string;

  constructor(
    init: FailedCall & {
      status: number;
      statusText: string;
      type: string;
      reportedStatus: string | number;
      message: string;
    },
  ) {
    super(init.message);
    this.status = init.status;
    this.statusText = init.statusText;
    this.type = init.type;
    this.reportedStatus = init.reportedStatus;
    this.method = init.method;
    this.url = init.url;
  }

  /** Reads a failed answer the way spec §8 says (through core's describeFailedResponse). */
  static fromAnswer(
    call: FailedCall,
    answer: { status: number; statusText: string; bodyText: string; contentType: string | null },
  ): ApiError {
    const described = describeFailedResponse({
      status: answer.status,
      statusText: answer.statusText,
      bodyText: answer.bodyText,
      isJson: isJsonContentType(answer.contentType),
    });
    return new ApiError({
      ...call,
      status: answer.status,
      statusText: answer.statusText,
      type: described.type,
      reportedStatus: described.status,
      message: described.message,
    });
  }

  /** The notification to show for this failure (spec §8: 5xx shows only 'Internal Error'). */
  get notification(): ErrorNotification {
    return errorNotification(this.status, this.message);
  }
}

/**
 * The call never got an HTTP answer: the server could not be reached, the connection broke, or the answer
 * could not be read. Kept apart from ApiError because retrying may help here and never helps a 4xx.
 */
export class NetworkError extends Error {
  override name = 'NetworkError';
  readonly method: string;
  readonly url: string;

  constructor(call: FailedCall, cause: unknown, message?: string) {
    super(
      message ??
        `Could not reach the marketplace at ${originOf(call.url)}. Check the connection and try again.`,
      { cause },
    );
    this.method = call.method;
    this.url = call.url;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export function isNetworkError(value: unknown): value is NetworkError {
  return value instanceof NetworkError;
}

/** application/json and the +json types (problem+json and friends). */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
