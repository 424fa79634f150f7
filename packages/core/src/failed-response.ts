/**
 * How a failed HTTP answer becomes the error people see (spec §8). Pure: the caller reads the body text
 * and says whether it was JSON; nothing here touches the network.
 */
import { DEFAULT_ERROR_TYPE } from './constants';
import { truncateErrorMessage } from './format';

export interface FailedResponseInput {
  /** The HTTP status code. */
  status: number;
  statusText: string;
  /** The body as text ('' when there was none). */
  bodyText: string;
  /** The answer's content type said JSON. */
  isJson: boolean;
}

export interface FailedResponse {
  /** The body's `type`, lower-cased; 'warning' when it names none. */
  type: string;
  /** The body's `type` when it names one, otherwise the HTTP status code. */
  status: string | number;
  /** The body's message cut to 1000 characters, or the status text when it brought none. */
  message: string;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * JSON answers give `{ type, message }`: the type is lower-cased (default 'warning'), the status is that
 * type or else the HTTP status, the message is cut to 1000 characters or else the status text. Other
 * answers (and JSON that is not an object) give their text, cut the same way, or else the status text.
 */
export function describeFailedResponse({
  status,
  statusText,
  bodyText,
  isJson,
}: FailedResponseInput): FailedResponse {
  const body = isJson ? parseJsonObject(bodyText) : undefined;
  if (body !== undefined) {
    const type = nonEmptyString(body['type']);
    const message = nonEmptyString(body['message']);
    return {
      type: type?.toLowerCase() ?? DEFAULT_ERROR_TYPE,
      status: type ?? status,
      message: message === undefined ? statusText : truncateErrorMessage(message),
    };
  }
  const text = bodyText.trim();
  return {
    type: DEFAULT_ERROR_TYPE,
    status,
    message: text === '' ? statusText : truncateErrorMessage(text),
  };
}
