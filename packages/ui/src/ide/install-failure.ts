import { installFailureToast } from '@marketplace/core';
import { IDE_BRIDGE_ERROR_KINDS, isIdeBridgeError } from '@marketplace/ide-bridge';

export interface InstallFailure {
  title: string;
  message: string;
  /** The IDE may have quit: forget the known IDEs and look again. */
  ideMayBeGone: boolean;
}

/**
 * What to tell the visitor when an install failed: always the spec's 'Oops' toast with its sentence. An IDE
 * that answered and refused (403: the visitor declined or the site is not trusted), limited us (429), is
 * still asking its user whether to trust this site, or that the browser would not let us reach is still
 * running, so the bridge's explanation follows that sentence and the IDE list is kept; after any other
 * failure the IDE list is cleared.
 */
export function describeInstallFailure(error: unknown, ideName: string): InstallFailure {
  const failure = installFailureToast(ideName);
  const ideAnswered =
    isIdeBridgeError(error) &&
    (error.kind === IDE_BRIDGE_ERROR_KINDS.refused ||
      error.kind === IDE_BRIDGE_ERROR_KINDS.rateLimited ||
      error.kind === IDE_BRIDGE_ERROR_KINDS.confirmationTimeout ||
      error.kind === IDE_BRIDGE_ERROR_KINDS.permissionDenied);
  if (ideAnswered) return { ...failure, message: `${failure.message} ${error.message}`, ideMayBeGone: false };
  return { ...failure, ideMayBeGone: true };
}
