import { isApiError, isNetworkError } from '@marketplace/api-client';
import {
  errorNotification,
  INTERNAL_API_ERROR,
  truncateErrorMessage,
  type ErrorNotification,
} from '@marketplace/core';
import type { ToastApi, ToastOptions } from '@marketplace/ui';

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

/**
 * The toast of a failed call, by the one rule of spec §8 (core's errorNotification): from status 500 up only
 * the title 'Internal Error', never anything of the answer's body; otherwise 'Error' with the call's message.
 * `describe` may word a message a page knows better (a 403 on an admin screen); it is never asked for a
 * server fault. Undefined for an aborted call.
 */
export function errorToast(
  error: unknown,
  describe: (error: unknown) => string = errorText,
): ToastOptions | undefined {
  const notification = notificationForError(error);
  if (!notification) return undefined;
  const message = notification.message === undefined ? undefined : describe(error) || notification.message;
  return { kind: 'error', title: notification.title, keep: true, ...(message ? { message } : {}) };
}

/** Shows the toast of a failed call (see errorToast); every page's failure toasts go through here. */
export function showErrorToast(
  toasts: ToastApi | null,
  error: unknown,
  describe?: (error: unknown) => string,
): void {
  const toast = errorToast(error, describe);
  if (toast) toasts?.show(toast);
}

export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}
