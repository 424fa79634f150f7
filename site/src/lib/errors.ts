import { isApiError, isNetworkError } from '@marketplace/api-client';
import {
  errorNotification,
  INTERNAL_API_ERROR,
  truncateErrorMessage,
  type ErrorNotification,
} from '@marketplace/core';

/** The notification a failed call shows (spec §8); aborted calls show none. */
export function notificationForError(error: unknown): ErrorNotification | undefined {
  if (error instanceof DOMException && error.name === 'AbortError') return undefined;
  if (isApiError(error)) return errorNotification(error.status, truncateErrorMessage(error.message));
  if (isNetworkError(error)) return errorNotification(0, error.message);
  return errorNotification(
    0,
    error instanceof Error ? truncateErrorMessage(error.message) : INTERNAL_API_ERROR,
  );
}

/** The text to show inline for a failed call. */
export function errorText(error: unknown): string {
  const notification = notificationForError(error);
  if (!notification) return '';
  return notification.message ?? notification.title;
}

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}
