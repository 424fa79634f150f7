import { Type, type Static } from 'typebox';

/**
 * Every error the API answers with, by code: the HTTP status and the `type` of the JSON body (spec §8: the
 * client lower-cases `type` and shows `message`). Messages are written per occurrence by the server.
 */
export const API_ERRORS = {
  badRequest: { status: 400, type: 'error' },
  validation: { status: 400, type: 'error' },
  unauthorized: { status: 401, type: 'error' },
  forbidden: { status: 403, type: 'error' },
  notFound: { status: 404, type: 'error' },
  methodNotAllowed: { status: 405, type: 'error' },
  conflict: { status: 409, type: 'error' },
  payloadTooLarge: { status: 413, type: 'error' },
  unsupportedMediaType: { status: 415, type: 'error' },
  tooManyRequests: { status: 429, type: 'warning' },
  internal: { status: 500, type: 'error' },
  unavailable: { status: 503, type: 'error' },
} as const satisfies Record<string, { status: number; type: 'error' | 'warning' }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && Object.hasOwn(API_ERRORS, value);
}

/** The body of every error answer (spec §8). */
export const ErrorBody = Type.Object(
  {
    type: Type.Enum(['error', 'warning']),
    message: Type.String(),
  },
  { description: 'An error: `type` is "error" or "warning", `message` is for people.' },
);
export type ErrorBody = Static<typeof ErrorBody>;
