/**
 * The user-facing texts of spec §2, §4, §5 and §8, each written once. Texts that take a value are small
 * functions.
 */
import { INTERNAL_ERROR_MIN_STATUS, TOAST_AUTO_CLOSE_MS } from './constants';

/** Shown for an upload that failed without saying why (spec §8). */
export const UNKNOWN_UPLOAD_ERROR = 'Sorry, an unknown error has occurred. Please, try to reload the page.';

/** An upload answered with a status other than 400: 'Status code {code}: {text}' (spec §5). */
export function uploadStatusError(statusCode: number, statusText: string): string {
  return `Status code ${statusCode}: ${statusText}`;
}

export interface ToastText {
  title: string;
  message: string;
}

export const INSTALL_SUCCESS_TITLE = 'Success';
export const INSTALL_FAILURE_TITLE = 'Oops';

/** After the IDE accepted an install: the install goes on in the IDE. */
export function installSuccessToast(ideName: string): ToastText {
  return { title: INSTALL_SUCCESS_TITLE, message: `Check your IDE - ${ideName}` };
}

/** After an install request failed (the spec's wording, kept as the product has always shown it). */
export function installFailureToast(ideName: string): ToastText {
  return {
    title: INSTALL_FAILURE_TITLE,
    message: `Installation to ${ideName} is failed during the error. Please make sure, your IDE is still running.`,
  };
}

/** The install button's link to the item page when no IDE is running. */
export const GET_FROM_MARKETPLACE = 'Get from Marketplace';
/** The course button; disabled while no compatible IDE runs. */
export const OPEN_COURSE = 'Open course';
/** The hint beside the disabled course button. */
export const LAUNCH_IDE_HINT = 'Please launch your IDE and refresh the page';

export const STATISTICS_LOADING = 'Getting statistics...';
export const STATISTICS_UNAVAILABLE = 'Statistics temporarily unavailable';

/** An item card's description placeholder. */
export const NO_DESCRIPTION = 'Description is not provided';

/** The AI-assistant button's text unless the host page gives `buttonText`. */
export const AI_BUTTON_DEFAULT_TEXT = 'Try for free';

export const INTERNAL_ERROR_TITLE = 'Internal Error';
export const ERROR_TITLE = 'Error';
export const INTERNAL_API_ERROR = 'Internal API error has happened. Please update the page or return later';

export const SOMETHING_WENT_WRONG = 'Something went wrong';
export const FAILED = 'Failed';
export const TRY_AGAIN = 'Try again';

export interface ErrorNotification {
  title: string;
  /** Absent for server faults: the title says all a visitor can act on. */
  message?: string;
  /** Error notifications stay on screen until the visitor closes them. */
  keepOpen: true;
}

/**
 * The notification for a failed call (spec §8): from status 500 up only the title 'Internal Error';
 * otherwise 'Error' with the call's message, or the generic API error when it brought none.
 */
export function errorNotification(status: number, message?: string | null): ErrorNotification {
  if (status >= INTERNAL_ERROR_MIN_STATUS) return { title: INTERNAL_ERROR_TITLE, keepOpen: true };
  const text = message?.trim();
  return { title: ERROR_TITLE, message: text || INTERNAL_API_ERROR, keepOpen: true };
}

export interface ToastBehaviour {
  isError: boolean;
  /** The caller asked for the toast to stay. */
  keepOpen?: boolean;
  /** The toast holds buttons or links the visitor may still want to use. */
  hasControls?: boolean;
}

/**
 * How long a toast stays before closing by itself, or undefined when it stays until closed: error toasts,
 * toasts asked to stay and toasts with controls stay; the others close after 5 seconds.
 */
export function toastAutoCloseMs({
  isError,
  keepOpen = false,
  hasControls = false,
}: ToastBehaviour): number | undefined {
  return isError || keepOpen || hasControls ? undefined : TOAST_AUTO_CLOSE_MS;
}
