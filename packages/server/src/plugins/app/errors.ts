import { API_ERRORS, type ApiErrorCode, type ErrorBody } from '@marketplace/api-contract';
import { INTERNAL_API_ERROR } from '@marketplace/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { dataExceptionMessage } from '../../db/data-exceptions';
import { outageOf } from '../../outage';

/** The only message a 5xx answer carries: the details stay in the log (spec §8 wording). */
export const INTERNAL_ERROR_MESSAGE = INTERNAL_API_ERROR;

/**
 * The one error class of the HTTP boundary. Throw it from a route (or anything a route calls) with a code
 * from API_ERRORS and a message written for the person who will read it.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ApiErrorCode;
  readonly statusCode: number;
  readonly type: 'error' | 'warning';

  constructor(code: ApiErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.statusCode = API_ERRORS[code].status;
    this.type = API_ERRORS[code].type;
  }
}

type ValidationIssue = NonNullable<FastifyError['validation']>[number];

const PLACE_NAMES: Record<string, string> = {
  querystring: 'query parameter',
  params: 'path parameter',
  body: 'body field',
  headers: 'header',
};

/** Turns Ajv's report into one sentence a person understands, e.g. `Query parameter "max" must be <= 100.` */
export function describeValidationIssue(
  context: string | undefined,
  issue: ValidationIssue | undefined,
): string {
  const place = PLACE_NAMES[context ?? ''] ?? 'value';
  if (!issue) return `The request has an invalid ${place}.`;
  const params = issue.params as Record<string, unknown>;
  const pathName = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'required' && typeof params.missingProperty === 'string') {
    const name = pathName ? `${pathName}.${params.missingProperty}` : params.missingProperty;
    return `The ${place} "${name}" is required.`;
  }
  if (issue.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    return `Unknown ${place} "${params.additionalProperty}".`;
  }
  const subject = pathName
    ? `The ${place} "${pathName}"`
    : `The request ${place === 'body field' ? 'body' : place}`;
  if ((issue.keyword === 'enum' || issue.keyword === 'const') && params.allowedValues) {
    const allowed = (params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ');
    return `${subject} must be one of ${allowed}.`;
  }
  return `${subject} ${issue.message ?? 'is invalid'}.`;
}

function bodyFor(type: ErrorBody['type'], message: string): ErrorBody {
  return { type, message };
}

/**
 * Answers every failure as JSON `{ type, message }` with the right status (spec §8): ApiError as thrown,
 * validation failures as 400 with a readable sentence, Fastify's own 4xx as they are, anything else as a 500
 * whose body never shows internals.
 */
export default fp(
  async function errorHandling(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      if (error instanceof ApiError) {
        if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
        const message = error.statusCode >= 500 ? INTERNAL_ERROR_MESSAGE : error.message;
        return reply.code(error.statusCode).send(bodyFor(error.type, message));
      }
      if (error.validation) {
        const message = describeValidationIssue(error.validationContext, error.validation[0]);
        return reply.code(400).send(bodyFor('error', message));
      }
      // The database out of reach or the disk full: 503 or 507 saying so, not a 500 (src/outage.ts).
      const outage = outageOf(error);
      if (outage) {
        request.log.error({ err: error }, 'request failed: the database or the disk is unavailable');
        return reply
          .code(outage.status)
          .header('retry-after', String(outage.retryAfterSeconds))
          .send(bodyFor('error', outage.message));
      }
      // A value the database refused (an id past the integer range, a zero byte): the request's, not a 500.
      const refused = dataExceptionMessage(error);
      if (refused) {
        request.log.warn({ err: error }, 'request refused by the database');
        return reply.code(400).send(bodyFor('error', refused));
      }
      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        return reply.code(status).send(bodyFor(status === 429 ? 'warning' : 'error', error.message));
      }
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(status >= 500 && status < 600 ? status : 500)
        .send(bodyFor('error', INTERNAL_ERROR_MESSAGE));
    });

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? request.url;
      return reply.code(404).send(bodyFor('error', `There is nothing at ${request.method} ${path}.`));
    });
  },
  { name: 'error-handling', fastify: '5.x' },
);
