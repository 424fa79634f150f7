import { ErrorBody } from '@marketplace/api-contract';

/** The error answers every review route may give, in the shape of API_ERRORS. */
export const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
} as const;
